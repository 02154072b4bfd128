// Reads (GET/HEAD) and writes (POST/PATCH/DELETE) on a table or view, run inside the request's transaction.
import type { Queryable } from '../db/types.js';
import type { PlainResponse } from '../gateway/plain.js';
import { explainResponse, type PlanRequest } from './explain.js';
import { columnDefaults } from './column-defaults.js';
import { exactCountSql, readTotal } from './count-estimate.js';
import { namingAliases } from './alias-errors.js';
import { RestError } from './errors.js';
import { preferenceApplied, type Preferences } from './prefer.js';
import type { ParsedQuery } from './query-params.js';
import {
  checkMaxAffected,
  checkSingular,
  contentRange,
  contentType,
  headOrBody,
  readStatus,
} from './response.js';
import { ident } from './sql.js';
import type { SchemaCache, Table } from './schema-cache.js';
import {
  bodyExpr,
  buildLevel,
  checkAllLevelsUsed,
  newContext,
  qualified,
  renderColumns,
  type BodyShape,
} from './select-builder.js';
import {
  checkColumns,
  checkPagedWrite,
  deleteSql,
  insertColumns,
  insertSql,
  updateSql,
  type Row,
} from './write-builder.js';

export interface TableRequest {
  tx: Queryable;
  method: string;
  cache: SchemaCache;
  table: Table;
  query: ParsedQuery;
  prefs: Preferences;
  shape: BodyShape;
  /** Parsed JSON payload (POST/PATCH). */
  payload: unknown;
  /** The JSON text `payload` was parsed from, or null (a CSV or form body). */
  payloadJson: string | null;
  maxRows: number;
  /** Answer EXPLAIN's plan of the read instead of its rows (explain.ts). */
  plan?: PlanRequest | null;
}

interface PageRow {
  total: string | null;
  page_total: number;
  body: string;
  /** Rows an upsert inserted (rather than merged), for its 201/200 status. */
  inserted?: number;
}

const clause = (word: string, parts: string[], sep: string) =>
  parts.length ? ` ${word} ${parts.join(sep)}` : '';

export async function handleRead(r: TableRequest): Promise<PlainResponse> {
  const ctx = newContext(r.cache, r.query.levels);
  const tx = namingAliases(r.tx, ctx.aliasNames);
  const root = buildLevel(ctx, r.table, 'pgrst_0', r.query.select, '');
  checkAllLevelsUsed(ctx);
  const from = `${qualified(r.table)} as pgrst_0${clause('where', root.where, ' and ')}`;
  // max_rows truncates silently, as PostgREST's db-max-rows does.
  const limit = Math.min(root.limit ?? Infinity, r.maxRows);
  const offset = root.offset ?? 0;
  const sql =
    `select ${exactCountSql(r.prefs, from, r.maxRows)} as total, ` +
    `count(pgrst_t)::int as page_total, ${headOrBody(r.method, bodyExpr(r.shape))} as body ` +
    `from (select ${renderColumns(root.columns)} from ${from}${clause('group by', root.groupBy, ', ')}` +
    `${clause('order by', root.orderBy, ', ')}` +
    `${Number.isFinite(limit) ? ` limit ${limit}` : ''}${offset ? ` offset ${offset}` : ''}) pgrst_t`;
  if (r.plan) return explainResponse(tx, sql, ctx.params.values, r.plan, r.method);
  const { rows } = await tx.query<PageRow>(sql, ctx.params.values);
  const row = rows[0]!;
  checkSingular(r.shape, row.page_total);
  const exact = row.total === null ? null : Number(row.total);
  const total = await readTotal(tx, r.prefs, exact, from, ctx.params.values, r.maxRows);
  const status = readStatus(offset, row.page_total, total);
  const headers: Record<string, string> = {
    'content-type': contentType(r.shape),
    'content-range': contentRange(offset, row.page_total, total),
  };
  const applied = preferenceApplied(r.prefs, 'read');
  if (applied) headers['preference-applied'] = applied;
  return { status, headers, body: r.method === 'HEAD' ? null : row.body };
}

/**
 * The rows to insert as one JSON array text for Postgres to read: the body as sent when it was
 * JSON (an object wrapped in brackets), so numbers keep every digit, as PostgREST hands it over.
 */
function rowsJson(r: TableRequest, rows: Row[]): string {
  if (r.payloadJson === null) return JSON.stringify(rows);
  return Array.isArray(r.payload) ? r.payloadJson : `[${r.payloadJson}]`;
}

function payloadRows(payload: unknown): Row[] {
  const isObject = (v: unknown): v is Row =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(payload)) return [payload];
  if (Array.isArray(payload) && payload.every(isObject)) return payload;
  throw new RestError(400, 'PGRST102', 'Empty or invalid json');
}

/**
 * PUT upserts one row identified by `pk=eq.v` filters on exactly the primary key, whose payload
 * must carry the same key values (PostgREST's PGRST105 / PGRST115).
 */
function checkedPutRow(r: TableRequest): Row {
  const root = r.query.levels.get('');
  if (root?.limit !== undefined || root?.offset !== undefined) {
    throw new RestError(
      400,
      'PGRST114',
      'limit/offset querystring parameters are not allowed for PUT',
    );
  }
  const conditions = root?.conditions ?? [];
  const pk = r.table.primaryKey;
  const eqs = new Map<string, string>();
  for (const c of conditions) {
    if (
      c.kind === 'filter' &&
      c.op === 'eq' &&
      !c.negate &&
      !c.quantifier &&
      c.field.jsonPath.length === 0
    ) {
      eqs.set(c.field.name, c.value as string);
    }
  }
  if (pk.length === 0 || conditions.length !== pk.length || !pk.every((c) => eqs.has(c))) {
    throw new RestError(
      405,
      'PGRST105',
      "Filters must include all and only primary key columns with 'eq' operators",
    );
  }
  const rows = payloadRows(r.payload);
  if (rows.length !== 1) throw new RestError(400, 'PGRST102', 'Empty or invalid json');
  const row = rows[0]!;
  checkColumns(r.table, Object.keys(row));
  if (!pk.every((c) => c in row && String(row[c]) === eqs.get(c))) {
    throw new RestError(
      400,
      'PGRST115',
      'Payload values do not match URL in primary key column(s)',
    );
  }
  return row;
}

/** Rows an upsert merged, counted by the DO UPDATE's WHERE (see write-builder's insertSql). */
const UPDATED_COUNT = `select coalesce(nullif(current_setting('pgrst.updated', true), '')::int, 0) as updated`;

export async function handleWrite(r: TableRequest): Promise<PlainResponse> {
  // PUT's key filters name the row; they are checked against the payload, not sent as SQL.
  const putRow = r.method === 'PUT' ? checkedPutRow(r) : null;
  // Filters on an insert select nothing (PostgREST ignores them), so they are dropped too.
  if (r.method === 'POST' || putRow) {
    const root = r.query.levels.get('');
    r.query.levels.set('', { conditions: [], order: root?.order ?? [] });
  }
  if (r.method === 'PATCH' || r.method === 'DELETE') checkPagedWrite(r.query.levels);
  const ctx = newContext(r.cache, r.query.levels);
  const tx = namingAliases(r.tx, ctx.aliasNames);
  const root = buildLevel(ctx, r.table, 'pgrst_0', r.query.select, '');
  checkAllLevelsUsed(ctx);
  const { params } = ctx;
  const paging = { orderBy: root.orderBy, limit: root.limit, offset: root.offset };
  let mutation: string;
  let isUpsertMerge = false;
  if (r.method === 'POST') {
    const rows = payloadRows(r.payload);
    const columns = insertColumns(rows, r.query.columns);
    checkColumns(r.table, columns);
    if (r.query.onConflict) checkColumns(r.table, r.query.onConflict);
    if (rows.length === 0) {
      if (r.plan) return explainWrite(r, tx, emptyWrite(r.table), params.values, root);
      return writeResponse(r, { total: null, page_total: 0, body: '[]' });
    }
    const defaults =
      r.prefs.missing === 'default' && columns.length ? await columnDefaults(tx, r.table) : null;
    mutation = insertSql(r.table, params, { rows, json: rowsJson(r, rows) }, columns, {
      missingDefault: defaults,
      onConflict: r.query.onConflict,
      resolution: r.prefs.resolution,
    });
    isUpsertMerge = r.prefs.resolution === 'merge-duplicates';
  } else if (putRow) {
    const row = putRow;
    isUpsertMerge = true;
    mutation = insertSql(
      r.table,
      params,
      { rows: [row], json: rowsJson(r, [row]) },
      Object.keys(row),
      {
        missingDefault: null,
        onConflict: r.table.primaryKey,
        resolution: 'merge-duplicates',
      },
    );
  } else if (r.method === 'PATCH') {
    const [body] = payloadRows(r.payload);
    if (Array.isArray(r.payload) || !body)
      throw new RestError(400, 'PGRST102', 'Empty or invalid json');
    // `columns=` names the columns to set; other keys of the body are ignored (PostgREST's
    // getPayload applies qsColumns to updates as to inserts).
    const columns = r.query.columns ?? Object.keys(body);
    checkColumns(r.table, columns);
    if (columns.length === 0) {
      // Nothing to set: PostgREST answers as if no row matched.
      if (r.plan) return explainWrite(r, tx, emptyWrite(r.table), params.values, root);
      return writeResponse(r, { total: null, page_total: 0, body: '[]' });
    }
    mutation = updateSql(r.table, params, body, columns, root.where, paging);
  } else {
    mutation = deleteSql(r.table, root.where, paging);
  }

  if (r.plan) {
    const mutationReturning = `${mutation} returning pgrst_0.*`;
    return explainWrite(r, tx, mutationReturning, params.values, root);
  }
  const wantsBody = r.prefs.return === 'representation';
  let page: PageRow;
  if (!wantsBody && r.prefs.return !== 'headers-only') {
    // No RETURNING: a write the caller may not read back (no SELECT policy) still succeeds,
    // as with PostgREST's column-less RETURNING.
    const result = await tx.query(mutation, params.values);
    page = { total: null, page_total: result.affectedRows, body: '' };
  } else {
    const columns = wantsBody
      ? renderColumns(root.columns)
      : r.table.primaryKey.map((c) => `pgrst_0.${ident(c)}`).join(', ');
    const sql =
      `with pgrst_source as (${mutation} returning pgrst_0.*) ` +
      `select null as total, count(pgrst_t)::int as page_total, ` +
      `${bodyExpr(wantsBody ? r.shape : 'array')} as body ` +
      `from (select ${columns} from pgrst_source as pgrst_0` +
      `${r.method === 'POST' ? clause('order by', root.orderBy, ', ') : ''}) pgrst_t`;
    page = (await tx.query<PageRow>(sql, params.values)).rows[0]!;
  }
  checkMaxAffected(r.prefs, page.page_total);
  if (wantsBody) checkSingular(r.shape, page.page_total);
  if (isUpsertMerge) {
    const { rows } = await tx.query<{ updated: number }>(UPDATED_COUNT);
    page.inserted = page.page_total - (rows[0]?.updated ?? 0);
  }
  return writeResponse(r, page);
}

/** A write with nothing to write, as PostgREST plans it: the table's columns, no rows. */
function emptyWrite(table: Table): string {
  return `select pgrst_0.* from ${qualified(table)} as pgrst_0 where false`;
}

/**
 * EXPLAIN of the whole statement the write sends (PostgREST explains its main write query: the
 * mutation in a CTE and the body built from it). With `options=analyze` Postgres runs it, and
 * the change commits like any write unless `Prefer: tx=rollback` or pgrst.db_tx_end say
 * otherwise (upstream's docs, "Execution plan"); the checks that follow a write (max-affected,
 * a singular body, PUT's key) are not made, as upstream answers a plan before them.
 */
function explainWrite(
  r: TableRequest,
  tx: Queryable,
  mutationReturning: string,
  values: unknown[],
  root: ReturnType<typeof buildLevel>,
): Promise<PlainResponse> {
  const wantsBody = r.prefs.return === 'representation';
  const columns = wantsBody ? renderColumns(root.columns) : 'pgrst_0.*';
  const sql =
    `with pgrst_source as (${mutationReturning}) ` +
    `select null as total, count(pgrst_t)::int as page_total, ` +
    `${wantsBody ? bodyExpr(r.shape) : "''"} as body ` +
    `from (select ${columns} from pgrst_source as pgrst_0` +
    `${r.method === 'POST' ? clause('order by', root.orderBy, ', ') : ''}) pgrst_t`;
  return explainResponse(tx, sql, values, r.plan!, r.method);
}

function locationHeader(r: TableRequest, body: string): string | null {
  const first = (JSON.parse(body) as Row[])[0];
  if (!first || r.table.primaryKey.length === 0) return null;
  const query = r.table.primaryKey
    .map((c) => `${encodeURIComponent(c)}=eq.${encodeURIComponent(String(first[c]))}`)
    .join('&');
  return `/${r.table.name}?${query}`;
}

/** Status and headers per method, as PostgREST's Response.hs answers mutations. */
function writeResponse(r: TableRequest, page: PageRow): PlainResponse {
  const n = page.page_total;
  const total = r.prefs.count !== undefined ? n : null;
  const headers: Record<string, string> = {};
  // Inserts and deletes report `*/N`; updates the affected range; PUT nothing.
  if (r.method === 'PATCH') headers['content-range'] = contentRange(0, n, total);
  else if (r.method !== 'PUT') headers['content-range'] = `*/${total ?? '*'}`;
  const target =
    r.method === 'POST'
      ? 'insert'
      : r.method === 'PUT'
        ? 'put'
        : r.method === 'PATCH'
          ? 'update'
          : 'delete';
  const resolutionApplies = r.table.primaryKey.length > 0 || r.query.onConflict !== undefined;
  const applied = preferenceApplied(r.prefs, target, resolutionApplies);
  if (applied) headers['preference-applied'] = applied;
  // An upsert that only merged into existing rows answers 200 instead of 201.
  const upsertStatus = page.inserted === undefined || page.inserted > 0 ? 201 : 200;
  const representation = r.prefs.return === 'representation';
  let status: number;
  if (r.method === 'POST') status = upsertStatus;
  else if (r.method === 'PUT') status = representation ? upsertStatus : 204;
  else status = representation ? 200 : 204;
  if (representation) {
    headers['content-type'] = contentType(r.shape);
    return { status, headers, body: page.body };
  }
  if (r.prefs.return === 'headers-only' && r.method === 'POST') {
    const location = locationHeader(r, page.body || '[]');
    if (location) headers.location = location;
  }
  return { status, headers, body: null };
}
