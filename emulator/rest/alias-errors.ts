// Postgres errors of a REST request's queries, with the emulator's table aliases replaced by table names.
import type { Queryable } from '../db/types.js';

/**
 * The same session, whose Postgres errors name tables instead of the emulator's aliases
 * (`column pgrst_1.nope does not exist` → `column books.nope does not exist`, as PostgREST's
 * queries, which name tables, make Postgres say it): aliases are no client's business.
 */
export function namingAliases(tx: Queryable, names: Map<string, string>): Queryable {
  const rename = (err: unknown) => {
    if (typeof err !== 'object' || err === null) return err;
    const e = err as Record<string, unknown>;
    for (const field of ['message', 'detail', 'hint']) {
      if (typeof e[field] !== 'string') continue;
      e[field] = (e[field] as string).replace(
        /\bpgrst_(\d+)(?:_e)?\b/g,
        (whole, n: string) => names.get(`pgrst_${n}`) ?? whole,
      );
    }
    return err;
  };
  return {
    query: <R>(sql: string, params?: unknown[]) =>
      tx.query<R>(sql, params).catch((err: unknown) => {
        throw rename(err);
      }),
    exec: (sql) =>
      tx.exec(sql).catch((err: unknown) => {
        throw rename(err);
      }),
  };
}
