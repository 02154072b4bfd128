// A native Postgres server (DATABASE_URL) behind the same Db interface, through a node-postgres pool.
import pg from 'pg';
import {
  TEXT_RESULT_TYPES,
  type Db,
  type Queryable,
  type QueryResult,
  type TransactionOptions,
} from './types.js';
import { batchable, runBatch, type BatchStep } from './native-batch.js';
import { queryName, statementName } from './statement-names.js';

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (TEXT_RESULT_TYPES.includes(oid)) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  },
};

function toResult<R>(result: pg.QueryResult): QueryResult<R> {
  // A multi-statement text returns an array; callers use exec() for those.
  return {
    rows: result.rows as R[],
    fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
    affectedRows: result.command === 'SELECT' ? 0 : (result.rowCount ?? 0),
  };
}

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<R>(sql: string, params: unknown[] = []): Promise<QueryResult<R>> {
      return toResult<R>(await client.query({ text: sql, values: params, types }));
    },
    async exec(sql: string): Promise<void> {
      await client.query(sql);
    },
  };
}

/**
 * Queues BEGIN and the setup statement without waiting for their answers: the pool's clients run
 * in node-postgres's pipeline mode, so the transaction's first query follows them on the wire and
 * the three cost one round trip instead of three.
 */
function open(client: pg.PoolClient, options: TransactionOptions): Promise<unknown> {
  const begun = client.query(options.readOnly ? 'begin read only' : 'begin');
  const setup = options.setup
    ? client.query({
        // Prepared once per connection: no parse and plan per request.
        name: statementName(options.setup.sql),
        text: options.setup.sql,
        values: options.setup.params,
        types,
      })
    : null;
  const opened = Promise.all([begun, setup]);
  // Reported by the first query (or by the commit when there is none), never unhandled.
  opened.catch(() => undefined);
  return opened;
}

/** The socket under a pooled client, for corking (not in node-postgres's PoolClient type). */
function socketOf(client: pg.PoolClient): { cork(): void; uncork(): void } {
  return (client as unknown as pg.Client).connection.stream;
}

/**
 * A pipelined transaction (setup, readOnly or oneQuery): BEGIN, the setup and fn's first query —
 * and with oneQuery its COMMIT — leave in one write. Each write to a loopback socket wakes the
 * server and costs about as much as running a small statement, so one write instead of three or
 * four is most of what a short REST request spends on the database. Once the statements are
 * prepared on the connection they also share one Sync (see Batch), so the answer is one packet.
 */
async function pipelinedTransaction<T>(
  client: pg.PoolClient,
  fn: (tx: Queryable) => Promise<T>,
  options: TransactionOptions,
): Promise<{ result: T; committed: Promise<unknown> }> {
  const socket = socketOf(client);
  let corked = false;
  const uncork = () => {
    if (!corked) return;
    corked = false;
    socket.uncork();
  };
  /** BEGIN and the setup, queued (corked) on their own: null until sent some way. */
  let opening: Promise<unknown> | null = null;
  let begun = false;
  const begin = () => {
    if (begun) return;
    begun = true;
    socket.cork();
    corked = true;
    opening = open(client, options);
  };
  let committed: Promise<unknown> | null = null;
  let sent = 0;
  /** Sends what is queued; resolves when what went ahead of the first query has answered. */
  const flush = async () => {
    uncork();
    const ahead = opening;
    opening = null;
    await ahead;
  };
  const send = async <R>(issue: () => Promise<R>): Promise<R> => {
    if (options.oneQuery && sent > 0) {
      throw new Error('db: a oneQuery transaction sent a second query');
    }
    sent += 1;
    begin();
    const answer = issue();
    if (options.oneQuery) {
      committed = client.query('commit');
      // Awaited by the caller below; never unhandled meanwhile.
      committed.catch(() => undefined);
    }
    if (opening) {
      // Behind a failed setup this query fails too (25P02); the setup's error is the one to report.
      answer.catch(() => undefined);
      await flush();
    }
    return answer;
  };
  /** The first query, with BEGIN and the setup (and COMMIT) as one Batch. */
  const batch = async (sql: string, params: unknown[], name: string | undefined) => {
    sent += 1;
    begun = true;
    const steps: BatchStep[] = [{ text: options.readOnly ? 'begin read only' : 'begin' }];
    if (options.setup) {
      const { sql: text, params: values } = options.setup;
      steps.push({ text, name: statementName(text), values });
    }
    const resultStep = steps.length;
    steps.push({ text: sql, name, values: params });
    if (options.oneQuery) steps.push({ text: 'commit' });
    const result = await runBatch(client, steps, resultStep, types);
    if (options.oneQuery) committed = Promise.resolve();
    return result;
  };
  const tx: Queryable = {
    query: async <R>(sql: string, params: unknown[] = []) => {
      const name = options.prepare && sent === 0 ? queryName(sql) : undefined;
      if (
        sent === 0 &&
        !begun &&
        batchable(client, [name, options.setup && statementName(options.setup.sql)])
      ) {
        return toResult<R>(await batch(sql, params, name));
      }
      return toResult<R>(
        await send(() => client.query({ name, text: sql, values: params, types })),
      );
    },
    exec: async (sql: string) => {
      await send(() => client.query(sql));
    },
  };
  try {
    const result = await fn(tx);
    // A setup sent with no query behind it still has to succeed (it checks the role).
    begin();
    await flush();
    committed ??= client.query('commit');
    return { result, committed };
  } catch (err) {
    // Nothing was sent yet: nothing to end.
    if (!begun) throw err;
    uncork();
    // A COMMIT already sent ends the transaction (as a ROLLBACK if its query failed). A failed
    // Batch skipped its COMMIT, or its COMMIT failed; a ROLLBACK after that only warns.
    if (committed) await (committed as Promise<unknown>).catch(() => undefined);
    else await client.query('rollback').catch(() => undefined);
    throw err;
  }
}

/**
 * Every LISTEN of the emulator shares one dedicated connection instead of holding a pooled one
 * each. If it drops, it reconnects and listens again (notifications sent meanwhile are lost, as
 * for any Postgres listener). Services start listening at the same time, so LISTEN/UNLISTEN go
 * out one after another through `send`: node-postgres only queues a query issued while another
 * runs as a deprecated fallback ("Calling client.query() when the client is already executing a
 * query"), which pg@9 removes.
 */
class Notifications {
  private readonly channels = new Map<string, Set<(payload: string) => void>>();
  private client: Promise<pg.Client> | null = null;
  private closed = false;
  /** The last command sent on the connection; the next one waits for it. */
  private commands: Promise<unknown> = Promise.resolve();

  private send(client: pg.Client, sql: string): Promise<unknown> {
    const run = this.commands.then(() => client.query(sql));
    this.commands = run.catch(() => undefined);
    return run;
  }

  constructor(private readonly connectionString: string) {}

  private connect(): Promise<pg.Client> {
    this.client ??= (async () => {
      const client = new pg.Client({ connectionString: this.connectionString });
      const lost = () => {
        client.removeAllListeners('notification');
        this.client = null;
        if (!this.closed && this.channels.size) {
          setTimeout(() => void this.connect().catch(() => undefined), 1000).unref();
        }
      };
      client.on('error', lost);
      client.on('end', lost);
      client.on('notification', (msg) => {
        for (const listener of this.channels.get(msg.channel) ?? []) listener(msg.payload ?? '');
      });
      try {
        await client.connect();
        for (const channel of this.channels.keys()) {
          await this.send(client, `listen ${pg.escapeIdentifier(channel)}`);
        }
      } catch (err) {
        this.client = null;
        throw err;
      }
      return client;
    })();
    return this.client;
  }

  async listen(channel: string, onNotify: (payload: string) => void) {
    let set = this.channels.get(channel);
    if (!set) {
      set = new Set();
      this.channels.set(channel, set);
      const client = await this.connect();
      await this.send(client, `listen ${pg.escapeIdentifier(channel)}`);
    }
    set.add(onNotify);
    const listeners = set;
    return async () => {
      listeners.delete(onNotify);
      if (listeners.size || this.channels.get(channel) !== listeners) return;
      this.channels.delete(channel);
      const client = await this.client?.catch(() => null);
      if (client) {
        await this.send(client, `unlisten ${pg.escapeIdentifier(channel)}`).catch(() => undefined);
      }
    };
  }

  async close() {
    this.closed = true;
    const client = await this.client?.catch(() => null);
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

export async function openNative(connectionString: string): Promise<Db & { pool: pg.Pool }> {
  // Pipeline mode: queries issued without waiting share a round trip (see open()); used one at a
  // time, a pipelined client behaves as any other.
  const pool = new pg.Pool({ connectionString, max: 10, pipeline: true });
  // An idle pooled connection that dies (server restart) must not crash the emulator; the pool
  // replaces it and the next query reports any real problem.
  pool.on('error', () => undefined);
  // Fail fast with the server's own message when the URL is wrong.
  await pool.query('select 1');
  const base = wrap(pool);
  const notifications = new Notifications(connectionString);
  return {
    kind: 'postgres',
    pool,
    query: base.query,
    exec: base.exec,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions) {
      const client = await pool.connect();
      if (!options?.setup && !options?.readOnly && !options?.oneQuery) {
        try {
          await client.query('begin');
          const result = await fn(wrap(client));
          await client.query('commit');
          return result;
        } catch (err) {
          await client.query('rollback').catch(() => undefined);
          throw err;
        } finally {
          client.release();
        }
      }
      let outcome: { result: T; committed: Promise<unknown> };
      try {
        outcome = await pipelinedTransaction(client, fn, options);
      } catch (err) {
        client.release();
        throw err;
      }
      if (!options.readOnly) {
        try {
          await outcome.committed;
        } catch (err) {
          await client.query('rollback').catch(() => undefined);
          throw err;
        } finally {
          client.release();
        }
        return outcome.result;
      }
      // A read-only transaction's COMMIT cannot change its answer, so the answer does not wait
      // for it; the connection goes back to the pool once it is done (or is dropped if it failed).
      outcome.committed.then(
        () => client.release(),
        (err: Error) => client.release(err),
      );
      return outcome.result;
    },
    listen: (channel, onNotify) => notifications.listen(channel, onNotify),
    async close() {
      await notifications.close();
      await pool.end();
    },
  };
}
