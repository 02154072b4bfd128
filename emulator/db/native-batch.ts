// Several statements behind one Sync on a node-postgres connection (see Batch), for the native
// backend's pipelined transactions (native.ts). It reaches into node-postgres internals that its
// types do not describe (the Connection's protocol writers, Query's result building), all named here.
import { createRequire } from 'node:module';
import pg from 'pg';

/** What node-postgres's Connection offers a query object (lib/connection.js; not in its types). */
interface WireConnection {
  stream: { cork(): void; uncork(): void };
  parsedStatements: Record<string, string | undefined>;
  parse(msg: { text: string; name: string; types: number[] }): void;
  bind(msg: { statement: string; values: unknown[] }): void;
  describe(msg: { type: 'P'; name: string }): void;
  execute(msg: { portal: string }): void;
  sync(): void;
}

function connectionOf(client: pg.PoolClient): WireConnection {
  return (client as unknown as { connection: WireConnection }).connection;
}

/** node-postgres's value conversion for parameters (Date, arrays, objects as JSON, …). */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue(value: unknown): unknown;
};

/** One statement of a Batch: a prepared one by name (already parsed on the connection) or text. */
export interface BatchStep {
  text: string;
  /** A statement prepared on this connection before; without, the text is parsed unnamed. */
  name?: string;
  values?: unknown[];
}

/** The parts of node-postgres's Query a Batch builds on (lib/query.js; not in its types). */
interface QueryInternals {
  _result: {
    addFields(fields: unknown[]): void;
    parseRow(fields: unknown[]): unknown;
    addRow(row: unknown): void;
    addCommandComplete(msg: unknown): void;
  };
  _canceledDueToError: unknown;
}
const QueryBase = pg.Query as unknown as new (config: pg.QueryConfig) => QueryInternals;

/**
 * Several statements behind one Sync: node-postgres ends every query with its own Sync, and
 * Postgres flushes its answer at each one, so BEGIN, setup, statement and COMMIT sent as four
 * queries come back as up to four packets, each waking the emulator for another read and
 * event-loop turn. Sent as one extended-protocol sequence they are one write each way. Postgres
 * runs them in order and, after an error, skips the rest up to the Sync; the first error is the
 * batch's. Only the statement at `resultStep` is described and its rows and command tag kept.
 *
 * Subclassing node-postgres's Query keeps its result building (type parsers, command tags) and
 * lets the client route the answer messages here; its pipeline mode accepts Query instances only.
 */
class Batch extends QueryBase {
  private step = 0;
  callback: (err: Error | null, result?: pg.QueryResult) => void;

  constructor(
    private readonly steps: BatchStep[],
    private readonly resultStep: number,
    types: pg.QueryConfig['types'],
    callback: (err: Error | null, result?: pg.QueryResult) => void,
  ) {
    super({ text: steps[resultStep]!.text, types });
    this.callback = callback;
  }

  submit(connection: WireConnection): Error | null {
    let values: unknown[][];
    try {
      // Converted before anything is written, so a value that cannot be sent leaves the wire clean.
      values = this.steps.map((s) => (s.values ?? []).map(prepareValue));
    } catch (err) {
      return err as Error;
    }
    connection.stream.cork();
    try {
      this.steps.forEach((s, i) => {
        const name = s.name ?? '';
        if (!s.name) connection.parse({ text: s.text, name, types: [] });
        connection.bind({ statement: name, values: values[i]! });
        if (i === this.resultStep) connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '' });
      });
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
    return null;
  }

  handleRowDescription(msg: { fields: unknown[] }) {
    if (this.step === this.resultStep) this._result.addFields(msg.fields);
  }

  handleDataRow(msg: { fields: unknown[] }) {
    if (this.step !== this.resultStep || this._canceledDueToError) return;
    try {
      this._result.addRow(this._result.parseRow(msg.fields));
    } catch (err) {
      this._canceledDueToError = err;
    }
  }

  handleCommandComplete(msg: unknown) {
    if (this.step === this.resultStep) this._result.addCommandComplete(msg);
    this.step += 1;
  }

  handleEmptyQuery() {
    this.step += 1;
  }
}

/** Runs `steps` as one Batch; answers the rows and command tag of `steps[resultStep]`. */
export function runBatch(
  client: pg.PoolClient,
  steps: BatchStep[],
  resultStep: number,
  types: pg.QueryConfig['types'],
): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    client.query(
      new Batch(steps, resultStep, types, (err, result) =>
        err ? reject(err) : resolve(result!),
      ) as never,
    );
  });
}

/**
 * Whether BEGIN, the setup and the first query can go as one Batch: its statements must be
 * prepared on this connection already or unnamed. A name seen for the first time is prepared by
 * node-postgres's own query path (which keeps its parsed-statement bookkeeping right even when
 * the statement fails), so the first transaction of a shape on a connection takes that path.
 */
export function batchable(client: pg.PoolClient, names: Array<string | undefined>): boolean {
  const parsed = connectionOf(client).parsedStatements;
  return names.every((name) => name === undefined || parsed[name] !== undefined);
}
