// Splits a REST query string into the select tree and per-level filters, order and paging.
import type { LevelQuery, SelectItem } from './ast.js';
import { parseError } from './errors.js';
import { parseFilterValue, parseLogicTree, parseOrder } from './filter-parser.js';
import { Cursor, readField, parseSelect } from './select-parser.js';

export interface ParsedQuery {
  select: SelectItem[];
  /** Keyed by embed path: '' is the root table, 'author' or 'author.country' an embed. */
  levels: Map<string, LevelQuery>;
  /** `columns="a","b"` for inserts (PostgREST's pColumns). */
  columns?: string[];
  onConflict?: string[];
  /** Every other parameter: RPC arguments on GET. */
  rest: Array<[string, string]>;
}

// `not.or` before `or`, so the longer tail wins.
const RESERVED_TAILS = ['not.or', 'not.and', 'order', 'limit', 'offset', 'or', 'and'];

function level(levels: Map<string, LevelQuery>, path: string): LevelQuery {
  let found = levels.get(path);
  if (!found) {
    found = { conditions: [], order: [] };
    levels.set(path, found);
  }
  return found;
}

function nonNegative(key: string, value: string): number {
  if (!/^\d+$/.test(value)) {
    throw parseError(
      `"failed to parse ${key} parameter (${value})" (line 1, column 1)`,
      'expecting digit',
    );
  }
  return Number(value);
}

function parseColumnList(raw: string, what: string): string[] {
  const c = new Cursor(raw);
  const out: string[] = [];
  do {
    const field = readField(c, what);
    out.push(field.name);
  } while (c.eat(','));
  if (!c.done()) c.fail(what);
  return out;
}

/** Splits `a.b.or` into ['a.b', 'or'] knowing which tails are keywords. */
function splitKey(key: string): [string, string] {
  for (const tail of RESERVED_TAILS) {
    if (key === tail) return ['', tail];
    if (key.endsWith(`.${tail}`)) return [key.slice(0, -tail.length - 1), tail];
  }
  const dot = key.lastIndexOf('.');
  // A column name never contains a dot; a JSON path (`data->a`) is part of the last segment.
  const arrow = key.indexOf('->');
  if (dot === -1 || (arrow !== -1 && arrow < dot)) return ['', key];
  return [key.slice(0, dot), key.slice(dot + 1)];
}

/**
 * Reads the query string. For RPC GET, `argNames` are the function's parameters: those keys are
 * arguments, every other key a filter on the result (PostgREST's `qsParams`).
 */
export function parseQuery(search: URLSearchParams, argNames?: ReadonlySet<string>): ParsedQuery {
  const levels = new Map<string, LevelQuery>([['', { conditions: [], order: [] }]]);
  const parsed: ParsedQuery = { select: parseSelect(search.get('select')), levels, rest: [] };
  for (const [key, value] of search) {
    if (key === 'select') continue;
    if (key === 'columns') {
      parsed.columns = parseColumnList(value, 'columns');
      continue;
    }
    if (key === 'on_conflict') {
      parsed.onConflict = parseColumnList(value, 'on_conflict');
      continue;
    }
    if (argNames?.has(key)) {
      parsed.rest.push([key, value]);
      continue;
    }
    const [path, tail] = splitKey(key);
    const target = level(levels, path);
    if (tail === 'order') target.order.push(...parseOrder(value));
    else if (tail === 'limit') target.limit = nonNegative('limit', value);
    else if (tail === 'offset') target.offset = nonNegative('offset', value);
    else if (tail === 'or' || tail === 'and') target.conditions.push(parseLogicTree(tail, value));
    else if (tail === 'not.or' || tail === 'not.and') {
      target.conditions.push(parseLogicTree(tail.slice(4) as 'and' | 'or', value, true));
    } else {
      const c = new Cursor(tail);
      const field = readField(c, 'filter');
      if (!c.done()) c.fail('filter');
      target.conditions.push(parseFilterValue(field, value));
    }
  }
  return parsed;
}
