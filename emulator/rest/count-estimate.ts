// Prefer: count=planned|estimated — totals from the planner's row estimate, as PostgREST takes them.
import type { Queryable } from '../db/types.js';
import type { Preferences } from './prefer.js';

/** Whether a read's total needs the planner (a second statement after the page's). */
export function needsPlan(prefs: Preferences): boolean {
  return prefs.count === 'planned' || prefs.count === 'estimated';
}

/**
 * The exact count a read computes with its page: all matching rows for `count=exact`; for
 * `count=estimated` at most maxRows + 1 of them, since beyond max_rows the estimate takes over
 * (PostgREST's limitedQuery); none for `planned` or no count.
 */
export function exactCountSql(prefs: Preferences, from: string, maxRows: number): string {
  if (prefs.count === 'exact') return `(select count(*) from ${from})`;
  if (prefs.count === 'estimated') {
    return `(select count(*) from (select 1 from ${from} limit ${maxRows + 1}) pgrst_c)`;
  }
  return 'null';
}

/**
 * The planner's row estimate for `select 1 from <from>`: the top plan node's "Plan Rows" of
 * EXPLAIN (FORMAT JSON), PostgREST's postExplain of its count query. Parameters the FROM clause
 * does not use (they belong to the select list or embeds) are still bound, so they are cast to
 * text in the select list; Postgres refuses a parameter whose type it cannot infer.
 */
async function plannedRows(tx: Queryable, from: string, params: unknown[]): Promise<number> {
  const used = new Set([...from.matchAll(/\$(\d+)\b/g)].map((m) => Number(m[1])));
  const unused = params.map((_, i) => i + 1).filter((n) => !used.has(n));
  const extra = unused.map((n) => `, $${n}::text`).join('');
  const { rows } = await tx.query<Record<string, unknown>>(
    `explain (format json) select 1${extra} from ${from}`,
    params,
  );
  const raw = Object.values(rows[0] ?? {})[0];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{
    Plan: { 'Plan Rows': number };
  }>;
  return Math.round(plan[0]!.Plan['Plan Rows']);
}

/**
 * The total a read answers (PostgREST's MainTx): `planned` the estimate alone; `estimated` the
 * exact count while it stays within max_rows, else the larger of it and the estimate.
 */
export async function readTotal(
  tx: Queryable,
  prefs: Preferences,
  exact: number | null,
  from: string,
  params: unknown[],
  maxRows: number,
): Promise<number | null> {
  if (prefs.count === 'planned') return plannedRows(tx, from, params);
  if (prefs.count === 'estimated' && exact !== null && exact > maxRows) {
    return Math.max(exact, await plannedRows(tx, from, params));
  }
  return exact;
}
