// PostgREST's aggregate functions in `select` (count(), sum(), avg(), min(), max()): the SQL of
// each, and the GROUP BY over the level's other columns. Off unless pgrst.db_aggregates_enabled.
import type { SelectItem } from './ast.js';
import { RestError } from './errors.js';
import type { RestDbConfig } from './db-config.js';
import { fieldSql } from './filter-sql.js';
import type { Table } from './schema-cache.js';
import { ident, type Params } from './sql.js';

/** Whether a select tree uses an aggregate anywhere, embeds included. */
export function hasAggregates(items: SelectItem[]): boolean {
  return items.some(
    (item) => item.kind === 'aggregate' || (item.kind === 'embed' && hasAggregates(item.select)),
  );
}

/** PGRST123 for aggregates unless `pgrst.db_aggregates_enabled` is on (hosted keeps it off). */
export function checkAggregates(select: SelectItem[], settings: RestDbConfig): void {
  if (!settings.aggregatesEnabled && hasAggregates(select)) {
    throw new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
  }
}

/**
 * `sum(alias.col)` and its output key, as PostgREST builds it: the input cast inside the call,
 * the result's cast around it, keyed by the alias or else the function's name.
 */
export function aggregateColumn(
  item: Extract<SelectItem, { kind: 'aggregate' }>,
  alias: string,
  table: Table,
  params: Params,
): { expr: string; key: string } {
  let arg = '*';
  if (item.field) {
    const base = fieldSql(alias, item.field, params, table);
    arg = item.inputCast ? `cast(${base} as ${item.inputCast})` : base;
  }
  const call = `${item.fn}(${arg})`;
  return { expr: item.cast ? `cast(${call} as ${item.cast})` : call, key: item.alias ?? item.fn };
}

/**
 * The GROUP BY of a level with aggregates: every other output expression (a `*` stands for each
 * of the table's columns). Embedded JSON is grouped as jsonb, since json has no equality.
 */
export function groupByExprs(
  columns: Array<{ expr: string; key: string | null; aggregate?: boolean; json?: boolean }>,
  alias: string,
  table: Table,
): string[] {
  const out: string[] = [];
  for (const column of columns) {
    if (column.aggregate) continue;
    if (column.key === null) {
      for (const c of table.columns) out.push(`${alias}.${ident(c.name)}`);
      continue;
    }
    if (column.json) column.expr = `(${column.expr})::jsonb`;
    out.push(column.expr);
  }
  return out;
}
