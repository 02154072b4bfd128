// Builds the SQL of a read: select list with embeds as correlated JSON subqueries, filters, order, paging.
// As PostgREST does, the response body is rendered by Postgres itself (json_agg), so every value
// has exactly Postgres's JSON rendering.
import type { Condition, LevelQuery, OrderTerm, SelectItem } from './ast.js';
import { RestError } from './errors.js';
import { aggregateColumn, groupByExprs } from './aggregates.js';
import { conditionSql, fieldSql } from './filter-sql.js';
import { findRelationship, type Relationship } from './relationships.js';
import type { SchemaCache, Table } from './schema-cache.js';
import { ident, Params } from './sql.js';

export interface BuildContext {
  cache: SchemaCache;
  params: Params;
  levels: Map<string, LevelQuery>;
  /** Embed paths that were matched to a select item (the rest are PGRST108). */
  used: Set<string>;
  /** Embed path by target name → its alias, for PGRST108's hint. */
  aliased: Map<string, string>;
  aliasCount: number;
  /** Each alias (`pgrst_1`) → the table or function it reads, for error messages. */
  aliasNames: Map<string, string>;
}

export function newContext(cache: SchemaCache, levels: Map<string, LevelQuery>): BuildContext {
  return {
    cache,
    params: new Params(),
    levels,
    used: new Set(['']),
    aliased: new Map(),
    aliasCount: 0,
    aliasNames: new Map(),
  };
}

/** One output column: `key` null means `alias.*`; `json` marks an embed (grouped as jsonb). */
interface OutColumn {
  expr: string;
  key: string | null;
  aggregate?: boolean;
  json?: boolean;
}

interface Embedded {
  rel: Relationship;
  from: string;
  join: string[];
  /** join plus the embed's own filters: what `!inner` and null filters test. */
  where: string[];
  alias: string;
}

export interface BuiltLevel {
  columns: OutColumn[];
  where: string[];
  orderBy: string[];
  /** Set when the level has aggregates: its other columns. */
  groupBy: string[];
  limit?: number;
  offset?: number;
}

export const qualified = (t: Table) => `${ident(t.schema)}.${ident(t.name)}`;

/** `a and b`, or `true` for none (a computed relationship has no join condition). */
const conj = (parts: string[]) => (parts.length ? parts.join(' and ') : 'true');

export function renderColumns(columns: OutColumn[]): string {
  if (columns.length === 0) return '';
  return columns.map((c) => (c.key === null ? c.expr : `${c.expr} as ${ident(c.key)}`)).join(', ');
}

/**
 * Output key of a column: its alias, else the last JSON key of its path (array indexes skipped:
 * `data->1` is keyed `data`, `data->1->mycol->>2` `mycol`, as PostgREST's addAliases does).
 */
function columnKey(item: Extract<SelectItem, { kind: 'column' }>): string {
  if (item.alias) return item.alias;
  if (item.field.jsonPath.length === 0) return item.field.name;
  const keys = item.field.jsonPath.map((s) => s.key).filter((k) => !/^-?\d+$/.test(k));
  return keys[keys.length - 1] ?? item.field.name;
}

function orderSql(
  term: OrderTerm,
  alias: string,
  table: Table,
  embeds: Map<string, Embedded>,
  params: Params,
): string {
  let expr: string;
  if (term.relation !== undefined) {
    // PostgREST's addRelatedOrders: the embed is found by its alias if it has one, else its name.
    const embed = embeds.get(term.relation);
    if (!embed) {
      throw new RestError(
        400,
        'PGRST108',
        `'${term.relation}' is not an embedded resource in this request`,
        null,
        `Verify that '${term.relation}' is included in the 'select' query parameter.`,
      );
    }
    if (embed.rel.cardinality === 'one-to-many' || embed.rel.cardinality === 'many-to-many') {
      throw new RestError(
        400,
        'PGRST118',
        `A related order on '${term.relation}' is not possible`,
        `'${table.name}' and '${term.relation}' do not form a many-to-one or one-to-one relationship`,
      );
    }
    expr = `(select ${fieldSql(embed.alias, term.field, params, embed.rel.target)} from ${embed.from} where ${conj(embed.join)})`;
  } else {
    expr = fieldSql(alias, term.field, params, table);
  }
  return `${expr}${term.dir ? ` ${term.dir}` : ''}${term.nulls ? ` nulls ${term.nulls}` : ''}`;
}

/** How an embed's rows (`childAlias`) are tied to their parent row (`alias`). */
function joinConditions(rel: Relationship, alias: string, childAlias: string): string[] {
  if (rel.computedFn) return [];
  const j = rel.junction;
  if (!j) {
    return rel.sourceColumns.map(
      (c, i) => `${childAlias}.${ident(rel.targetColumns[i]!)} = ${alias}.${ident(c)}`,
    );
  }
  const jAlias = `${childAlias}_j`;
  const conds = [
    ...j.sourceColumns.map(
      (c, i) => `${jAlias}.${ident(c)} = ${alias}.${ident(rel.sourceColumns[i]!)}`,
    ),
    ...j.targetColumns.map(
      (c, i) => `${jAlias}.${ident(c)} = ${childAlias}.${ident(rel.targetColumns[i]!)}`,
    ),
  ];
  return [`exists (select 1 from ${qualified(j.table)} as ${jAlias} where ${conds.join(' and ')})`];
}

/** Whether `conditions` test the embed `name` with `is.null` / `not.is.null` (see conditionSql). */
function testsEmbedNull(conditions: Condition[], name: string): boolean {
  return conditions.some((c) =>
    c.kind === 'logic'
      ? testsEmbedNull(c.children, name)
      : c.op === 'is' &&
        c.field.name === name &&
        c.field.jsonPath.length === 0 &&
        ['null', 'not_null'].includes(String(c.value).toLowerCase()),
  );
}

/** Builds one level of the select tree (the root or an embed) reading `table` as `alias`. */
export function buildLevel(
  ctx: BuildContext,
  table: Table,
  alias: string,
  items: SelectItem[],
  path: string,
): BuiltLevel {
  const { params } = ctx;
  ctx.aliasNames.set(alias, table.name);
  const columns: OutColumn[] = [];
  const where: string[] = [];
  const embeds = new Map<string, Embedded>();
  const level = ctx.levels.get(path);
  for (const item of items) {
    if (item.kind === 'star') {
      columns.push({ expr: `${alias}.*`, key: null });
    } else if (item.kind === 'column') {
      const base = fieldSql(alias, item.field, params, table);
      columns.push({
        expr: item.cast ? `cast(${base} as ${item.cast})` : base,
        key: columnKey(item),
      });
    } else if (item.kind === 'aggregate') {
      columns.push({ ...aggregateColumn(item, alias, table, params), aggregate: true });
    } else {
      const rel = findRelationship(ctx.cache.relationships, table, item.name, item.hint);
      if (rel instanceof RestError) throw rel;
      const key = item.alias ?? item.name;
      const childPath = path ? `${path}.${key}` : key;
      // Filters address an aliased embed by its alias only (PostgREST v12+).
      if (item.alias) ctx.aliased.set(path ? `${path}.${item.name}` : item.name, item.alias);
      const levelPath = childPath;
      ctx.used.add(levelPath);
      const childAlias = `pgrst_${++ctx.aliasCount}`;
      const childItems =
        item.spread && item.select.some((s) => s.kind === 'star')
          ? item.select.flatMap((s): SelectItem[] =>
              s.kind === 'star'
                ? rel.target.columns.map((c) => ({
                    kind: 'column',
                    field: { name: c.name, jsonPath: [] },
                  }))
                : [s],
            )
          : item.select;
      const mark = params.values.length;
      const child = buildLevel(ctx, rel.target, childAlias, childItems, levelPath);
      // A computed relationship reads its function's rows for this parent row.
      const from = rel.computedFn
        ? `${rel.computedFn}(${alias}) as ${childAlias}`
        : `${qualified(rel.target)} as ${childAlias}`;
      const join = joinConditions(rel, alias, childAlias);
      let childWhere = [...join, ...child.where];
      // An empty embed without !inner emits no SQL unless `rel=is.null` tests it, so its filters
      // (which never filter a parent without !inner) must not leave unused `$n` parameters.
      if (
        item.select.length === 0 &&
        item.joinType !== 'inner' &&
        !testsEmbedNull(level?.conditions ?? [], key)
      ) {
        params.truncate(mark);
        childWhere = join;
      }
      const embedded: Embedded = { rel, from, join, where: childWhere, alias: childAlias };
      embeds.set(key, embedded);
      if (item.joinType === 'inner') {
        where.push(`exists (select 1 from ${from} where ${conj(childWhere)})`);
      }
      // `rel!inner()` only filters the parent; an empty embed adds no key (PostgREST v11+).
      if (item.select.length === 0) continue;
      const toMany = rel.cardinality === 'one-to-many' || rel.cardinality === 'many-to-many';
      const inner =
        `select ${renderColumns(child.columns) || 'null'} from ${from} where ${conj(childWhere)}` +
        (child.groupBy.length ? ` group by ${child.groupBy.join(', ')}` : '') +
        (child.orderBy.length ? ` order by ${child.orderBy.join(', ')}` : '') +
        (child.limit !== undefined ? ` limit ${child.limit}` : '') +
        (child.offset !== undefined ? ` offset ${child.offset}` : '');
      const e = `${childAlias}_e`;
      if (item.spread) {
        for (const c of child.columns) {
          // A to-many spread gives each column as an array of the related rows' values, in the
          // embed's order (PostgREST 13+); a to-one spread gives the value itself.
          columns.push({
            expr: toMany
              ? `(select coalesce(json_agg(${e}.${ident(c.key ?? '')}), '[]') from (${inner}) ${e})`
              : `(select ${c.expr} from ${from} where ${conj(childWhere)})`,
            key: c.key,
            json: toMany,
          });
        }
        continue;
      }
      const expr = toMany
        ? `(select coalesce(json_agg(${e}), '[]') from (${inner}) ${e})`
        : `(select to_json(${e}) from (${inner}) ${e})`;
      columns.push({ expr, key, json: true });
    }
  }
  const embedNull = (name: string) => {
    const e = embeds.get(name);
    return e ? `exists (select 1 from ${e.from} where ${conj(e.where)})` : null;
  };
  for (const cond of level?.conditions ?? []) {
    where.push(conditionSql(cond, alias, table, params, embedNull));
  }
  const orderBy = (level?.order ?? []).map((t) => orderSql(t, alias, table, embeds, params));
  const groupBy = columns.some((c) => c.aggregate) ? groupByExprs(columns, alias, table) : [];
  return { columns, where, orderBy, groupBy, limit: level?.limit, offset: level?.offset };
}

/** PGRST108 for filters on a path that is not embedded (PostgREST's `NotEmbedded`). */
export function checkAllLevelsUsed(ctx: BuildContext): void {
  for (const [path, level] of ctx.levels) {
    if (ctx.used.has(path)) continue;
    if (
      !level.conditions.length &&
      !level.order.length &&
      level.limit === undefined &&
      level.offset === undefined
    )
      continue;
    const alias = ctx.aliased.get(path);
    const name = path.slice(path.lastIndexOf('.') + 1);
    throw new RestError(
      400,
      'PGRST108',
      `'${name}' is not an embedded resource in this request`,
      alias ? 'Target names are not allowed in filters if they have an alias' : null,
      alias
        ? `Change '${name}' to '${alias}' in filters, orders or limits.`
        : `Verify that '${name}' is included in the 'select' query parameter.`,
    );
  }
}

/**
 * `media`: a media-type function's value as it is (see DbFunction.mediaType), for RPC only.
 * `geojson`: `Accept: application/geo+json`, a FeatureCollection built by PostGIS.
 */
export type BodyShape =
  'array' | 'object' | 'stripped' | 'stripped-object' | 'csv' | 'geojson' | 'media';

/** The aggregate producing the response body from the page's rows `pgrst_t`. */
export function bodyExpr(shape: BodyShape): string {
  switch (shape) {
    case 'array':
      return `coalesce(json_agg(pgrst_t), '[]')::text`;
    case 'object':
      return `coalesce((json_agg(pgrst_t)->0)::text, '')`;
    case 'stripped':
      return `coalesce(json_agg(json_strip_nulls(to_json(pgrst_t))), '[]')::text`;
    case 'stripped-object':
      return `coalesce((json_agg(json_strip_nulls(to_json(pgrst_t)))->0)::text, '')`;
    case 'csv':
      // PostgREST's CSV: a header from the first row's keys, then each row's record text
      // without its parentheses (Postgres quotes fields containing commas or quotes).
      return (
        `coalesce((select string_agg(pgrst_k, ',') from json_object_keys(json_agg(pgrst_t)->0) as pgrst_k), '')` +
        ` || chr(10) || coalesce(string_agg(substring(pgrst_t::text, 2, length(pgrst_t::text) - 2), chr(10)), '')`
      );
    case 'geojson':
      // PostgREST's GeoJSON handler: PostGIS 3's ST_AsGeoJSON(record) makes each row a Feature
      // (its first geometry column the geometry, the other columns the properties). Without
      // PostGIS the call is Postgres's own 42883, "function st_asgeojson(record) does not
      // exist" (404), and a row without a geometry column is PostGIS's 22023 (400), as upstream.
      return (
        `json_build_object('type', 'FeatureCollection', 'features', ` +
        `coalesce(json_agg(ST_AsGeoJSON(pgrst_t)::json), '[]'))::text`
      );
    case 'media':
      throw new Error('a media-type body is never built from rows');
  }
}
