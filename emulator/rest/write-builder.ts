// Builds INSERT (incl. upsert), UPDATE and DELETE statements from a JSON payload and parsed filters.
// Payload values are converted by Postgres (json_populate_record against the table's row type), so
// JSON arrays become Postgres arrays, objects become json/jsonb, as PostgREST's json_populate does.
import type { LevelQuery } from './ast.js';
import { columnNotFound, RestError } from './errors.js';
import type { Table } from './schema-cache.js';
import { qualified } from './select-builder.js';
import { rowsWithDefaults } from './column-defaults.js';
import { ident, Params } from './sql.js';

export type Row = Record<string, unknown>;

/** PGRST204 for any payload column the table does not have. */
export function checkColumns(table: Table, columns: string[]): void {
  for (const c of columns) if (!table.columnMap.has(c)) throw columnNotFound(c, table.name);
}

/** Column list of an insert: `columns=` if given, else the keys of the (first) object. */
export function insertColumns(rows: Row[], columns: string[] | undefined): string[] {
  if (columns) return columns;
  const first = Object.keys(rows[0] ?? {});
  for (const row of rows) {
    const keys = Object.keys(row);
    if (keys.length !== first.length || !keys.every((k) => first.includes(k))) {
      // PostgREST's PGRST102 for arrays whose objects have different keys.
      throw new RestError(400, 'PGRST102', 'All object keys must match');
    }
  }
  return first;
}

function recordExpr(table: Table, params: Params, row: Row): string {
  return `json_populate_record(null::${qualified(table)}, ${params.add(JSON.stringify(row))}::json)`;
}

export interface InsertOptions {
  /** With `Prefer: missing=default`: the table's column defaults (column-defaults.ts). */
  missingDefault: Map<string, string> | null;
  onConflict?: string[];
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
}

/**
 * `insert into … as pgrst_0 (…) select … from json_populate_recordset(…)[ on conflict …]`, as
 * PostgREST builds it: the rows' JSON text is one parameter that Postgres reads once. With
 * `missing=default` each row is first merged over the columns' defaults (rowsWithDefaults), as
 * upstream. (No RETURNING; callers add it.)
 */
export function insertSql(
  table: Table,
  params: Params,
  body: { rows: Row[]; json: string },
  columns: string[],
  opts: InsertOptions,
): string {
  const { rows } = body;
  const target = `${qualified(table)} as pgrst_0`;
  let sql: string;
  if (columns.length > 0) {
    const list = columns.map(ident).join(', ');
    const from = opts.missingDefault
      ? rowsWithDefaults(qualified(table), columns, opts.missingDefault, params.add(body.json))
      : `json_populate_recordset(null::${qualified(table)}, ${params.add(body.json)}::json) as pgrst_body`;
    sql = `insert into ${target} (${list}) select ${list} from ${from}`;
  } else {
    // `{}` rows: every column takes its default.
    const first = table.columns.find((c) => !c.generated);
    if (!first || rows.length <= 1) sql = `insert into ${target} default values`;
    else
      sql = `insert into ${target} (${ident(first.name)}) values ${rows.map(() => '(default)').join(', ')}`;
  }
  if (opts.resolution) {
    const conflict = opts.onConflict ?? table.primaryKey;
    const targetCols = conflict.length ? ` (${conflict.map(ident).join(', ')})` : '';
    if (opts.resolution === 'ignore-duplicates') sql += ` on conflict${targetCols} do nothing`;
    else {
      const updates = columns.map((c) => `${ident(c)} = excluded.${ident(c)}`);
      // The WHERE only counts merged rows (always true), so the caller can tell 201 from 200, as
      // PostgREST's `pgrst.inserted` setting does.
      const counter = `set_config('pgrst.updated', (coalesce(nullif(current_setting('pgrst.updated', true), '')::int, 0) + 1)::text, true) <> ''`;
      sql += updates.length
        ? ` on conflict${targetCols} do update set ${updates.join(', ')} where ${counter}`
        : ` on conflict${targetCols} do nothing`;
    }
  }
  return sql;
}

export interface Paging {
  orderBy: string[];
  limit?: number;
  offset?: number;
}

/**
 * PGRST109: `limit`/`offset` (at any level) on PATCH or DELETE without any `order`, as PostgREST
 * v12.2's getRanges refuses it. v13 and v14 dropped limited updates and deletes (they change every
 * matching row and ignore the paging); the emulator follows v12 because it is within the supported
 * range and fails loudly, where v13+ would silently change more rows than the request named.
 */
export function checkPagedWrite(levels: Map<string, LevelQuery>): void {
  const all = [...levels.values()];
  const paged = all.some((l) => l.limit !== undefined || l.offset !== undefined);
  if (paged && all.every((l) => l.order.length === 0)) {
    throw new RestError(
      400,
      'PGRST109',
      "A 'limit' was applied without an explicit 'order'",
      null,
      "Apply an 'order' using unique column(s)",
    );
  }
}

/**
 * Restricts an UPDATE/DELETE to a page of rows in the requested order (PostgREST v12 limited
 * updates/deletes; rows are named by ctid rather than by the order columns).
 */
function pagedWhere(table: Table, where: string[], paging: Paging): string[] {
  if (paging.limit === undefined && paging.offset === undefined) return where;
  const inner =
    `select pgrst_0.ctid from ${qualified(table)} as pgrst_0` +
    (where.length ? ` where ${where.join(' and ')}` : '') +
    (paging.orderBy.length ? ` order by ${paging.orderBy.join(', ')}` : '') +
    (paging.limit !== undefined ? ` limit ${paging.limit}` : '') +
    (paging.offset !== undefined ? ` offset ${paging.offset}` : '');
  return [`pgrst_0.ctid = any(array(${inner}))`];
}

/** pg-safeupdate (loaded for PostgREST on hosted Supabase) rejects UPDATE/DELETE without WHERE. */
function requireWhere(verb: 'UPDATE' | 'DELETE', where: string[]): void {
  if (where.length === 0) throw new RestError(400, '21000', `${verb} requires a WHERE clause`);
}

export function updateSql(
  table: Table,
  params: Params,
  body: Row,
  columns: string[],
  where: string[],
  paging: Paging,
): string {
  // A paged write has a WHERE (its page), which pg-safeupdate accepts, as with PostgREST v12.
  const paged = pagedWhere(table, where, paging);
  requireWhere('UPDATE', paged);
  const record = recordExpr(table, params, body);
  const sets = columns.map((c) => `${ident(c)} = (${record}).${ident(c)}`);
  return `update ${qualified(table)} as pgrst_0 set ${sets.join(', ')} where ${paged.join(' and ')}`;
}

export function deleteSql(table: Table, where: string[], paging: Paging): string {
  const paged = pagedWhere(table, where, paging);
  requireWhere('DELETE', paged);
  return `delete from ${qualified(table)} as pgrst_0 where ${paged.join(' and ')}`;
}
