// The one database interface every emulator service uses, whether PGlite or a native Postgres is behind it.

export interface QueryField {
  name: string;
  dataTypeID: number;
}

export interface QueryResult<R = Record<string, unknown>> {
  rows: R[];
  fields: QueryField[];
  /** Rows inserted, updated or deleted by the statement (0 for reads). */
  affectedRows: number;
}

/**
 * Something SQL can be sent to: the pool, or one transaction's connection.
 * Values come back parsed the same way on both backends: int2/int4/float as numbers, bool as
 * boolean, json/jsonb parsed, and int8, numeric, dates and timestamps as Postgres's text.
 */
export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<R>>;
  /** Runs a script of several statements without parameters. */
  exec(sql: string): Promise<void>;
}

/** A statement and its parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

export interface TransactionOptions {
  /** `begin read only`, as PostgREST opens its GET/HEAD transactions. */
  readOnly?: boolean;
  /**
   * Runs right after BEGIN, before anything fn sends (REST's per-request settings). BEGIN, setup
   * and fn's first query go to the database together, in one round trip on native Postgres and in
   * one call on PGlite; if setup fails, fn's first query rejects with setup's error.
   */
  setup?: Statement;
  /**
   * fn sends at most one query, and nothing fn does after its answer may roll the transaction
   * back (a read-only transaction, or a write with nothing left to check): the COMMIT goes to the
   * database with that query, in the same round trip or call, instead of after its answer. If the
   * query fails, that COMMIT rolls back. A second query rejects without being sent.
   */
  oneQuery?: boolean;
  /**
   * fn's first query is prepared under a name its text decides, once per connection, and reused
   * by later transactions sending the same text. Only for statements whose result columns cannot
   * change with the schema (Postgres refuses to rerun a prepared statement whose columns changed).
   */
  prepare?: boolean;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction on one connection; commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** LISTEN on a channel; the returned function stops listening. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Type OIDs whose values are returned as Postgres's text on every backend (see Queryable). */
export const TEXT_RESULT_TYPES: readonly number[] = [
  20, // int8
  1700, // numeric
  1082, // date
  1083, // time
  1114, // timestamp
  1184, // timestamptz
  1186, // interval
  1266, // timetz
];
