// Parsers for filter values (`not.in.(1,2)`), logic trees (`or=(a.eq.1,and(b.gt.2,c.is.null))`) and `order=`.
import type { Condition, FieldRef, Filter, FilterOp, LogicTree, OrderTerm } from './ast.js';
import { parseError } from './errors.js';
import { Cursor, readField, readName } from './select-parser.js';

const OPS = new Set<FilterOp>([
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'is',
  'isdistinct',
  'in',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxl',
  'nxr',
  'adj',
  'fts',
  'plfts',
  'phfts',
  'wfts',
]);
const FTS = new Set<string>(['fts', 'plfts', 'phfts', 'wfts']);
const QUANTIFIABLE = new Set<string>([
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
]);

/**
 * Splits a list on top-level commas, honouring `"…"` quotes (with backslash escapes),
 * parentheses and braces. Quotes are kept; callers unquote what they need.
 */
export function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '\\') i++;
      else if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === '(' || ch === '{' || ch === '[') depth++;
    else if (ch === ')' || ch === '}' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** `"a,b"` → `a,b` (with `\"`/`\\` unescaped); unquoted text is returned as is. */
export function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return value;
}

/** `(1,2,"a,b")` → ['1','2','a,b']. */
function parseList(raw: string, open: string, close: string, what: string): string[] {
  if (!raw.startsWith(open) || !raw.endsWith(close)) {
    throw parseError(
      `"failed to parse filter (${what})" (line 1, column 1)`,
      `expected ${open}…${close}`,
    );
  }
  const inner = raw.slice(1, -1);
  if (inner.trim() === '') return [];
  return splitTopLevel(inner).map((v) => unquote(v));
}

/**
 * Parses the right-hand side of `col=<value>`: `[not.]op[(any|all|config)].value`.
 * PostgREST's QueryParams.hs `pOpExpr`.
 */
export function parseFilterValue(field: FieldRef, raw: string): Filter {
  let rest = raw;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const m = /^([a-z]+)(?:\(([^)]*)\))?\.([\s\S]*)$/.exec(rest);
  if (!m || !OPS.has(m[1] as FilterOp)) {
    throw parseError(
      `"failed to parse filter (${raw})" (line 1, column ${negate ? 5 : 1})`,
      'unexpected "' + (rest[0] ?? '') + '" expecting "not" or operator (eq, gt, ...)',
    );
  }
  const op = m[1] as FilterOp;
  const modifier = m[2];
  const value = m[3] ?? '';
  const filter: Filter = { kind: 'filter', field, negate, op, value };
  if (modifier !== undefined) {
    if (FTS.has(op)) filter.ftsConfig = modifier;
    else if ((modifier === 'any' || modifier === 'all') && QUANTIFIABLE.has(op)) {
      filter.quantifier = modifier;
      filter.value = parseList(value, '{', '}', raw);
    } else
      throw parseError(
        `"failed to parse filter (${raw})" (line 1, column 1)`,
        `unexpected "(${modifier})"`,
      );
  }
  if (op === 'in') filter.value = parseList(value, '(', ')', raw);
  if (
    op === 'is' &&
    !['null', 'not_null', 'true', 'false', 'unknown'].includes(value.toLowerCase())
  ) {
    throw parseError(
      `"failed to parse filter (${raw})" (line 1, column ${raw.length - value.length + 1})`,
      'unexpected "' + value + '" expecting null or trilean value (unknown, true, false)',
    );
  }
  return filter;
}

function parseLogicItem(text: string): Condition {
  let rest = text;
  let negate = false;
  if (rest.startsWith('not.') && /^not\.(and|or)\(/.test(rest)) {
    negate = true;
    rest = rest.slice(4);
  }
  const tree = /^(and|or)(\([\s\S]*\))$/.exec(rest);
  if (tree) return parseLogicTree(tree[1] as 'and' | 'or', tree[2] ?? '', negate);
  const c = new Cursor(text);
  const field = readField(c, 'logic tree');
  if (!c.eat('.')) c.fail('logic tree');
  const value = text.slice(c.pos);
  const filter = parseFilterValue(field, value);
  if (typeof filter.value === 'string') filter.value = unquote(filter.value);
  return filter;
}

/** `(a.eq.1,and(b.gt.2))` for the tree operator `op`. */
export function parseLogicTree(op: 'and' | 'or', raw: string, negate = false): LogicTree {
  if (!raw.startsWith('(') || !raw.endsWith(')') || raw.length < 3) {
    throw parseError(`"failed to parse logic tree (${raw})" (line 1, column 1)`, 'expecting "("');
  }
  const children = splitTopLevel(raw.slice(1, -1)).map(parseLogicItem);
  return { kind: 'logic', op, negate, children };
}

/** `order=a.desc.nullslast,rel(b).asc` (PostgREST's `pOrder`). */
export function parseOrder(raw: string): OrderTerm[] {
  return splitTopLevel(raw).map((part) => {
    const c = new Cursor(part);
    let relation: string | undefined;
    let field = readField(c, 'order');
    if (c.eat('(')) {
      relation = field.name;
      field = readField(c, 'order');
      if (!c.eat(')')) c.fail('order');
    }
    const term: OrderTerm = { field, relation };
    while (c.eat('.')) {
      const word = readName(c, 'order');
      if (word === 'asc' || word === 'desc') term.dir = word;
      else if (word === 'nullsfirst') term.nulls = 'first';
      else if (word === 'nullslast') term.nulls = 'last';
      else c.fail('order');
    }
    if (!c.done()) c.fail('order');
    return term;
  });
}
