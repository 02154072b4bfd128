// PGlite transactions whose BEGIN, setup statement and first query go into PGlite in one call.
import { parse, type PGlite, protocol } from '@electric-sql/pglite';
import { queryName, statementName } from './statement-names.js';
import type { Queryable, QueryResult, Statement, TransactionOptions } from './types.js';

type Parsers = Parameters<typeof parse.parseResults>[1];

export interface PipelineTarget {
  pglite: PGlite;
  /** The same session through the ordinary wrapper, for the queries after the first. */
  plain: Queryable;
  /** PGlite's default parsers with the session's own on top, as its queries use them. */
  parsers: Parsers;
}

interface Sent extends Statement {
  /** Prepared under this name (setup statements), see statement-names.ts. */
  name?: string;
}

/** Named statements each PGlite session has prepared. */
const preparedBy = new WeakMap<PGlite, Set<string>>();

/** Parameters as text, converted as node-postgres converts them, so both backends read them alike. */
function paramText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Runs statements in one call into PGlite (Parse/Bind/Describe/Execute each, one Sync), as a
 * pipelining client would, and returns the last one's result. Each PGlite query otherwise costs
 * six calls into WebAssembly, and BEGIN, setup and COMMIT one or more each.
 */
async function pipeline(
  target: PipelineTarget,
  statements: Sent[],
  commit = false,
): Promise<QueryResult<never>> {
  const { serialize } = protocol;
  let prepared = preparedBy.get(target.pglite);
  if (!prepared) preparedBy.set(target.pglite, (prepared = new Set()));
  const parsing: Array<string | undefined> = [];
  const parts: Uint8Array[] = [];
  for (const { sql, params, name } of statements) {
    if (!name || !prepared.has(name)) {
      parts.push(serialize.parse({ text: sql, name }));
      parsing.push(name);
    }
    parts.push(
      serialize.bind({ statement: name, values: params.map(paramText) }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
    );
  }
  // A COMMIT behind the statements (oneQuery) is a bare Query message: after an error everything
  // up to the Sync is skipped, so it never commits a failed transaction.
  parts.push(serialize.sync());
  if (commit) parts.push(COMMIT);
  // execProtocolStream, as PGlite's own queries: it takes the output over from whatever a wire
  // client's execProtocolRawStream left plugged in (execProtocol would not). Without the COMMIT
  // the transaction is still open afterwards, so syncing the file system waits for it, as in
  // PGlite's own transactions.
  const messages = await target.pglite.execProtocolStream(Buffer.concat(parts), {
    throwOnError: false,
    syncToFs: commit,
  });
  // Parses are answered in order, so the k-th ParseComplete is the k-th Parse sent. Only the last
  // statement's messages are parsed into rows: they follow the others' CommandCompletes.
  let parsed = 0;
  let completed = 0;
  let lastStart = 0;
  let failed: unknown = null;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.name === 'parseComplete') {
      const name = parsing[parsed++];
      if (name) prepared.add(name);
    } else if (m.name === 'commandComplete') {
      if (++completed === statements.length - 1) lastStart = i + 1;
    } else if (m.name === 'error') failed ??= m;
  }
  if (failed) throw failed;
  const results = parse.parseResults(messages.slice(lastStart), target.parsers);
  // The COMMIT's (oneQuery) follows the statement's.
  const last = results[0]!;
  return {
    rows: last.rows as never[],
    fields: last.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
    affectedRows: last.affectedRows ?? 0,
  };
}

const COMMIT = protocol.serialize.query('commit');

/** A bare Query message: pglite.exec costs three times as much for the same COMMIT. */
async function command(pglite: PGlite, sql: 'commit' | 'rollback'): Promise<void> {
  await pglite.execProtocolStream(protocol.serialize.query(sql));
}

const isMissingStatement = (err: unknown) => (err as { code?: string })?.code === '26000';

async function resyncPrepared(target: PipelineTarget): Promise<void> {
  const { rows } = await target.plain.query<{ name: string }>(
    "select name from pg_prepared_statements where name like 'postbox\\_%'",
  );
  preparedBy.set(target.pglite, new Set(rows.map((r) => r.name)));
}

/**
 * A transaction whose BEGIN and setup wait for fn's first query and go with it in one call
 * (pipeline()), and with oneQuery its COMMIT too; later queries run one by one, in order. Runs
 * under the session lock.
 */
export async function pipelinedTransaction<T>(
  target: PipelineTarget,
  fn: (tx: Queryable) => Promise<T>,
  options: TransactionOptions,
): Promise<T> {
  const { pglite, plain } = target;
  let opening: Sent[] | null = [
    { sql: options.readOnly ? 'begin read only' : 'begin', params: [] },
    ...(options.setup ? [{ ...options.setup, name: statementName(options.setup.sql) }] : []),
  ];
  let begun = false;
  const take = () => {
    const statements = opening;
    opening = null;
    if (statements) begun = true;
    return statements;
  };
  /** Set once a COMMIT went with the one query of a oneQuery transaction. */
  let committed = false;
  let sent = 0;
  const open = async (statements: Sent[], commit = false) => {
    try {
      const result = await pipeline(target, statements, commit);
      committed = commit;
      return result;
    } catch (err) {
      if (!isMissingStatement(err)) throw err;
      // A wire client dropped some of our prepared statements (DEALLOCATE, DISCARD): learn which
      // are left and start over, preparing the others again.
      await command(pglite, 'rollback');
      await resyncPrepared(target);
      const result = await pipeline(target, statements, commit);
      committed = commit;
      return result;
    }
  };
  const counted = () => {
    if (options.oneQuery && sent > 0) {
      throw new Error('db: a oneQuery transaction sent a second query');
    }
    sent += 1;
  };
  let queue: Promise<unknown> = Promise.resolve();
  const inOrder = <R>(work: () => Promise<R>): Promise<R> => {
    const run = queue.then(work);
    queue = run.catch(() => undefined);
    return run;
  };
  const tx: Queryable = {
    query: <R>(sql: string, params: unknown[] = []) =>
      inOrder(async () => {
        counted();
        const statements = take();
        if (!statements) return plain.query<R>(sql, params);
        const name = options.prepare ? queryName(sql) : undefined;
        const all = [...statements, { sql, params, name }];
        return open(all, options.oneQuery) as Promise<QueryResult<R>>;
      }),
    exec: (sql: string) =>
      inOrder(async () => {
        counted();
        const statements = take();
        if (statements) await open(statements);
        await plain.exec(sql);
      }),
  };
  try {
    const result = await fn(tx);
    await queue;
    // Nothing was sent: the setup still runs, so its errors (an unknown role) surface as on Postgres.
    const unsent = take();
    if (unsent) await open(unsent);
    if (begun && !committed) await command(pglite, 'commit');
    return result;
  } catch (err) {
    await queue;
    if (begun && !committed) await command(pglite, 'rollback').catch(() => undefined);
    throw err;
  }
}
