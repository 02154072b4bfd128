// Turns parsed filters and logic trees into SQL conditions; every value becomes a `$n` parameter.
import type { Condition, FieldRef, Filter } from './ast.js';
import type { Table } from './schema-cache.js';
import { arrayLiteral, ident, Params } from './sql.js';

/**
 * `alias."col"->'a'->>'b'`; JSON keys are parameters, array indexes integer literals. A name that is
 * no column of `table` but a computed field (a function of its row type) becomes `fn(alias)`.
 */
export function fieldSql(alias: string, field: FieldRef, params: Params, table?: Table): string {
  const computed =
    table && !table.columnMap.has(field.name) ? table.computed.get(field.name) : undefined;
  let sql = computed ? `${computed}(${alias})` : `${alias}.${ident(field.name)}`;
  for (const step of field.jsonPath) {
    const key = /^-?\d+$/.test(step.key) ? step.key : `${params.add(step.key)}::text`;
    sql += `${step.op}${key}`;
  }
  return sql;
}

const COMPARE: Record<string, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  // PostgREST's SqlFragment: nxr is "does not extend to the right of" (&<), nxl its mirror.
  nxl: '&>',
  nxr: '&<',
  adj: '-|-',
};

const TSQUERY: Record<string, string> = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
};

/** PostgREST uses `*` as the LIKE wildcard because `%` is awkward in URLs. */
const likePattern = (op: string, v: string) =>
  op === 'like' || op === 'ilike' ? v.replace(/\*/g, '%') : v;

function filterSql(
  filter: Filter,
  alias: string,
  table: Table | undefined,
  params: Params,
): string {
  const lhs = fieldSql(alias, filter.field, params, table);
  const { op } = filter;
  let sql: string;
  if (filter.quantifier) {
    const values = (filter.value as string[]).map((v) => likePattern(op, v));
    sql = `${lhs} ${COMPARE[op]} ${filter.quantifier}(${params.add(arrayLiteral(values))})`;
  } else if (op === 'in') {
    sql = `${lhs} = any(${params.add(arrayLiteral(filter.value as string[]))})`;
  } else if (op === 'is') {
    const value = (filter.value as string).toLowerCase();
    // The value is one of a fixed set checked by the parser, so it can be SQL text.
    sql = value === 'not_null' ? `${lhs} is not null` : `${lhs} is ${value}`;
  } else if (op === 'isdistinct') {
    sql = `${lhs} is distinct from ${params.add(filter.value)}`;
  } else if (op in TSQUERY) {
    const config =
      filter.ftsConfig !== undefined ? `${params.add(filter.ftsConfig)}::regconfig, ` : '';
    const column = table?.columnMap.get(filter.field.name);
    // On a text column PostgREST (v11+) applies to_tsvector itself.
    const vector =
      filter.field.jsonPath.length === 0 && column?.typname === 'tsvector'
        ? lhs
        : `to_tsvector(${config}${lhs})`;
    sql = `${vector} @@ ${TSQUERY[op]}(${config}${params.add(filter.value)})`;
  } else {
    sql = `${lhs} ${COMPARE[op]} ${params.add(likePattern(op, filter.value as string))}`;
  }
  return filter.negate ? `not (${sql})` : sql;
}

/**
 * SQL for one condition. `embedNull` resolves `rel=is.null` / `rel=not.is.null` on an embed
 * (PostgREST's null filtering on embedded resources) into an EXISTS test; it returns null when
 * the name is not an embed at this level.
 */
export function conditionSql(
  cond: Condition,
  alias: string,
  table: Table | undefined,
  params: Params,
  embedNull?: (name: string) => string | null,
): string {
  if (cond.kind === 'logic') {
    const parts = cond.children.map((c) => conditionSql(c, alias, table, params, embedNull));
    const joined = parts.length ? `(${parts.join(cond.op === 'and' ? ' and ' : ' or ')})` : 'true';
    return cond.negate ? `not ${joined}` : joined;
  }
  if (cond.op === 'is' && cond.field.jsonPath.length === 0 && embedNull) {
    const exists = embedNull(cond.field.name);
    const value = (cond.value as string).toLowerCase();
    if (exists !== null && (value === 'null' || value === 'not_null')) {
      const isNull = (value === 'null') !== cond.negate;
      return isNull ? `not ${exists}` : exists;
    }
  }
  return filterSql(cond, alias, table, params);
}
