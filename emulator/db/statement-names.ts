// Names for the statements prepared once per connection: REST's per-request settings and its queries.

const setups = new Map<string, string>();
const queries = new Map<string, string>();
/** Query names handed out so far; names are never reused, so one always means one text. */
let queriesNamed = 0;

/** Queries longer than this (bulk inserts, long filters) stay unnamed: rare shapes, large plans. */
const MAX_QUERY_LENGTH = 4000;

/**
 * The name a setup statement is prepared under, or undefined once 50 shapes have names (each
 * connection keeps what it prepared for its life, so the set must stay small). The text decides
 * the name, so a name always means the same statement on every connection.
 */
export function statementName(sql: string): string | undefined {
  let name = setups.get(sql);
  if (!name && setups.size < 50) {
    name = `postbox_setup_${setups.size + 1}`;
    setups.set(sql, name);
  }
  return name;
}

/**
 * The same for a transaction's first query (Db.transaction's `prepare`), for the first 300 shapes
 * no longer than MAX_QUERY_LENGTH: a REST request of a shape seen before skips parsing and,
 * once Postgres settles on a generic plan, planning, as PostgREST's prepared statements do.
 */
export function queryName(sql: string): string | undefined {
  let name = queries.get(sql);
  if (!name && queriesNamed < 300 && sql.length <= MAX_QUERY_LENGTH) {
    queriesNamed += 1;
    name = `postbox_query_${queriesNamed}`;
    queries.set(sql, name);
  }
  return name;
}

/**
 * After a schema change: texts sent from now on are prepared afresh under new names, so their
 * parameter types are inferred from the new schema (PostgREST flushes its pool for the same
 * reason). Statements prepared before stay on their connections unused.
 */
export function forgetQueryNames(): void {
  queries.clear();
}
