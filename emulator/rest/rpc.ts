// RPC: `/rpc/fn` with named arguments (POST body or GET query), scalar/composite/SETOF results, void → 204.
import type { Queryable } from '../db/types.js';
import type { PlainResponse } from '../gateway/plain.js';
import { namingAliases } from './alias-errors.js';
import { RestError } from './errors.js';
import { explainResponse, type PlanRequest } from './explain.js';
import { preferenceApplied, type Preferences } from './prefer.js';
import type { ParsedQuery } from './query-params.js';
import { applyResponseGucs, RESPONSE_GUCS, type ResponseGucs } from './response-gucs.js';
import {
  checkMaxAffected,
  checkSingular,
  contentRange,
  contentType,
  headOrBody,
  mediaContentType,
  readStatus,
} from './response.js';
import { onePositional } from './rpc-overloads.js';
import type { DbFunction, SchemaCache, Table } from './schema-cache.js';
import {
  bodyExpr,
  buildLevel,
  checkAllLevelsUsed,
  newContext,
  renderColumns,
  type BodyShape,
} from './select-builder.js';
import { ident } from './sql.js';

export interface RpcRequest {
  tx: Queryable;
  method: string;
  cache: SchemaCache;
  fn: DbFunction;
  /** Named arguments (POST body or GET query values), or the whole body for a json-body function. */
  args: unknown;
  /**
   * The JSON text `args` was parsed from (a POST body), handed to Postgres unchanged as PostgREST
   * does, so a number keeps every digit (JSON.parse would round it to a double); null: stringify.
   */
  argsJson: string | null;
  query: ParsedQuery;
  prefs: Preferences;
  shape: BodyShape;
  /** Answer EXPLAIN's plan of the call instead of its result (explain.ts). */
  plan?: PlanRequest | null;
}

/** The call expression and the FROM items that turn the JSON arguments into typed values. */
function callSql(r: RpcRequest, add: (v: unknown) => string): { call: string; argsFrom: string } {
  const name = `${ident(r.fn.schema)}.${ident(r.fn.name)}`;
  const json = () => r.argsJson ?? JSON.stringify(r.args);
  // One unnamed parameter, `{"": value}` included: the whole body (or the query's arguments as
  // a JSON object), cast to its type, as PostgREST's OnePosParam passes it.
  if (onePositional(r.fn)) {
    return { call: `${name}(${add(json())}::${r.fn.args[0]!.type})`, argsFrom: '' };
  }
  const given = Object.keys(r.args as object);
  const used = r.fn.args.filter((a) => given.includes(a.name));
  if (used.length === 0) return { call: `${name}()`, argsFrom: '' };
  // json_to_record converts JSON values (arrays, objects, numbers) to each argument's type.
  const defs = used.map((a) => `${ident(a.name)} ${a.type}`).join(', ');
  const call = `${name}(${used.map((a) => `${ident(a.name)} := pgrst_args.${ident(a.name)}`).join(', ')})`;
  return {
    call,
    argsFrom: `json_to_record(${add(json())}::json) as pgrst_args(${defs})`,
  };
}

/**
 * A set of scalars' body: a JSON array of the values (PostgREST's asJsonF), but rows like any
 * other for CSV and `vnd.pgrst.object` (`{"pgrst_scalar":1}`, as its asJsonSingleF renders them).
 */
function scalarSetBody(shape: BodyShape): string {
  if (shape === 'array') return `coalesce(json_agg(pgrst_t.pgrst_scalar), '[]')::text`;
  if (shape === 'stripped') {
    return `coalesce(json_strip_nulls(json_agg(pgrst_t.pgrst_scalar)), '[]')::text`;
  }
  return bodyExpr(shape);
}

function appliedHeader(prefs: Preferences): Record<string, string> {
  const applied = preferenceApplied(prefs, 'rpc');
  return applied ? { 'preference-applied': applied } : {};
}

/**
 * Headers of a function returning one value (or void): PostgREST reads it as one row, so its
 * Content-Range is `0-0/*` (`0-0/1` when counted).
 */
function singleHeaders(r: RpcRequest): Record<string, string> {
  return {
    'content-range': contentRange(0, 1, r.prefs.count && r.prefs.count !== 'planned' ? 1 : null),
    ...appliedHeader(r.prefs),
  };
}

/**
 * GeoJSON of a function returning one scalar: PostgREST reads the call as a row of one column
 * `pgrst_scalar` and hands that row to ST_AsGeoJSON, so a geometry is one Feature with no
 * properties and any other value PostGIS's 22023 "geometry column is missing".
 */
async function scalarGeoJson(
  r: RpcRequest,
  tx: Queryable,
  call: string,
  from: string,
  ctx: ReturnType<typeof newContext>,
): Promise<PlainResponse> {
  const { rows } = await tx.query<{ body: string } & ResponseGucs>(
    `select ${headOrBody(r.method, bodyExpr('geojson'))} as body, ${RESPONSE_GUCS} ` +
      `from (select ${call} as pgrst_scalar${from}) pgrst_t`,
    ctx.params.values,
  );
  return applyResponseGucs(
    {
      status: 200,
      headers: { ...singleHeaders(r), 'content-type': contentType('geojson') },
      body: r.method === 'HEAD' ? null : rows[0]!.body,
    },
    rows[0]!,
  );
}

export async function handleRpc(r: RpcRequest): Promise<PlainResponse> {
  const fn = r.fn;
  // PostgREST refuses this before calling: only a set of rows can be counted against the cap.
  if (r.prefs.handling === 'strict' && r.prefs.maxAffected !== undefined && !fn.returnsSet) {
    throw new RestError(
      400,
      'PGRST128',
      'Function must return SETOF or TABLE when max-affected preference is used with handling=strict',
    );
  }
  const returnsTable = fn.returnsComposite || fn.returnsSet;
  const tableName = fn.returnType.replace(/^.*\./, '').replace(/"/g, '');
  // A function returning a table's row type can be filtered and embedded like the table.
  const rowTable: Table = r.cache.tables.get(`${fn.schema}.${tableName}`) ?? {
    schema: fn.schema,
    name: fn.name,
    kind: 'f',
    columns: [],
    columnMap: new Map(),
    primaryKey: [],
    uniqueKeys: [],
    computed: new Map(),
  };
  const ctx = newContext(r.cache, r.query.levels);
  const tx = namingAliases(r.tx, ctx.aliasNames);
  const { call, argsFrom } = callSql(r, (v) => ctx.params.add(v));
  const lateral = argsFrom ? `${argsFrom}, ` : '';

  const from = argsFrom ? ` from ${argsFrom}` : '';
  if (fn.returnType === 'void') {
    const { rows } = await tx.query<ResponseGucs>(
      `select ${call}, ${RESPONSE_GUCS}${from}`,
      ctx.params.values,
    );
    return applyResponseGucs({ status: 204, headers: singleHeaders(r), body: null }, rows[0]!);
  }
  if (!returnsTable) {
    // A media-type function (it returns a domain such as "text/plain") asked for its own type
    // answers the value as it is, not as a JSON string; null is an empty body (PostgREST 12's
    // handler functions).
    if (r.shape === 'geojson') return scalarGeoJson(r, tx, call, from, ctx);
    const media = r.shape === 'media' ? fn.mediaType : null;
    if (media && fn.mediaBaseType === 'bytea') {
      throw new RestError(
        501,
        'PGRST501',
        `The emulator does not implement binary media type functions (${media})`,
      );
    }
    const value = media
      ? `coalesce((${call})::text, '')`
      : `coalesce(to_json(${call})::text, 'null')`;
    const { rows } = await tx.query<{ body: string } & ResponseGucs>(
      `select ${value} as body, ${RESPONSE_GUCS}${from}`,
      ctx.params.values,
    );
    return applyResponseGucs(
      {
        status: 200,
        headers: {
          ...singleHeaders(r),
          'content-type': media ? mediaContentType(media) : 'application/json; charset=utf-8',
        },
        body: r.method === 'HEAD' ? null : rows[0]!.body,
      },
      rows[0]!,
    );
  }
  const scalarSet = !fn.returnsComposite;
  const root = buildLevel(
    ctx,
    rowTable,
    'pgrst_0',
    scalarSet ? [{ kind: 'star' }] : r.query.select,
    '',
  );
  checkAllLevelsUsed(ctx);
  // A set of scalars is a subquery with the one column pgrst_scalar, as PostgREST's callPlanToQuery
  // builds it: `pgrst_0` is then a record, so a filter or order on any other name (the function's
  // own, say) is 42703 rather than the function called again through functional notation.
  const source = scalarSet
    ? `(select ${call} as pgrst_scalar${from}) as pgrst_0`
    : `${lateral}${call} as pgrst_0`;
  const where = root.where.length ? ` where ${root.where.join(' and ')}` : '';
  const group = root.groupBy.length ? ` group by ${root.groupBy.join(', ')}` : '';
  const order = root.orderBy.length ? ` order by ${root.orderBy.join(', ')}` : '';
  const offset = root.offset ?? 0;
  // PostgREST counts a function's rows exactly for count=exact and estimated; planned has no
  // estimate for a call (no EXPLAIN), so its total is unknown.
  const counted = r.prefs.count === 'exact' || r.prefs.count === 'estimated';
  const page =
    `select ${renderColumns(root.columns)} from ${source}${where}${group}${order}` +
    `${root.limit !== undefined ? ` limit ${root.limit}` : ''}${offset ? ` offset ${offset}` : ''}`;
  // A non-SETOF composite function answers an object, like PostgREST's single-row functions;
  // GeoJSON is a FeatureCollection either way (upstream's handler ignores how many rows).
  const asRows = fn.returnsSet || r.shape === 'geojson';
  const shape: BodyShape = asRows ? r.shape : 'object';
  const sql =
    `select ${counted ? `(select count(*) from ${source}${where})` : 'null'} as total, ` +
    `count(pgrst_t)::int as page_total, ${headOrBody(r.method, scalarSet ? scalarSetBody(shape) : bodyExpr(shape))} as body, ` +
    `${RESPONSE_GUCS} from (${page}) pgrst_t`;
  if (r.plan) return explainResponse(tx, sql, ctx.params.values, r.plan, r.method);
  const { rows } = await tx.query<
    { total: string | null; page_total: number; body: string } & ResponseGucs
  >(sql, ctx.params.values);
  const row = rows[0]!;
  const total = row.total === null ? null : Number(row.total);
  const status = fn.returnsSet ? readStatus(offset, row.page_total, total) : 200;
  if (fn.returnsSet) checkSingular(r.shape, row.page_total);
  // Thrown inside the request's transaction, so what the function changed is rolled back.
  checkMaxAffected(r.prefs, row.page_total);
  const text = row.body === '' ? 'null' : row.body;
  return applyResponseGucs(
    {
      status,
      headers: {
        'content-type': contentType(asRows ? r.shape : 'array'),
        'content-range': contentRange(offset, row.page_total, total),
        ...appliedHeader(r.prefs),
      },
      body: r.method === 'HEAD' ? null : text,
    },
    row,
  );
}
