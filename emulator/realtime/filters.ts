// Parses a postgres_changes `filter` string (contract §4.3): `col=[not.]op.value` conditions joined by commas (AND).

export type FilterOp =
  | 'eq'
  | 'neq'
  | 'lt'
  | 'lte'
  | 'gt'
  | 'gte'
  | 'in'
  | 'like'
  | 'ilike'
  | 'match'
  | 'imatch'
  | 'is'
  | 'isdistinct';

export interface FilterCondition {
  column: string;
  op: FilterOp;
  /** `not.` prefix: the condition must not hold. */
  negate: boolean;
  /** A single value, or the list for `in`. Compared after a cast to the column's type. */
  value: string | string[];
}

/** All conditions must hold (realtime-js's RealtimePostgresFilterBuilder joins them with commas). */
export interface ChangeFilter {
  conditions: FilterCondition[];
}

const OPS: readonly FilterOp[] = [
  'eq',
  'neq',
  'lt',
  'lte',
  'gt',
  'gte',
  'in',
  'like',
  'ilike',
  'match',
  'imatch',
  'is',
  'isdistinct',
];
/** Values `is` accepts, as PostgREST and realtime-js's builder spell them. */
const IS_VALUES = ['null', 'true', 'false', 'unknown'];
/** Upstream caps `in` lists at 100 values (realtime PostgresCdcRls filter parsing). */
const MAX_IN_VALUES = 100;

export class FilterError extends Error {}

/**
 * Splits on `sep` outside double quotes and parentheses. Quoted parts are unescaped (`\"`, `\\`)
 * the way realtime-js's builder escapes them (PostgREST quoting).
 */
function split(text: string, sep: string): Array<{ raw: string; text: string; quoted: boolean }> {
  const parts: Array<{ raw: string; text: string; quoted: boolean }> = [];
  let raw = '';
  let value = '';
  let quoted = false;
  let inQuotes = false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inQuotes) {
      raw += ch;
      if (ch === '\\' && i + 1 < text.length) {
        value += text[++i];
        raw += text[i];
      } else if (ch === '"') inQuotes = false;
      else value += ch;
      continue;
    }
    if (ch === '"') {
      inQuotes = quoted = true;
      raw += ch;
    } else if (ch === sep && depth === 0) {
      parts.push({ raw, text: value, quoted });
      raw = value = '';
      quoted = false;
    } else {
      if (ch === '(') depth++;
      if (ch === ')') depth--;
      raw += ch;
      value += ch;
    }
  }
  if (inQuotes) throw new FilterError('unterminated quote in filter');
  parts.push({ raw, text: value, quoted });
  return parts;
}

function parseList(raw: string): string[] {
  if (!raw.startsWith('(') || !raw.endsWith(')')) {
    throw new FilterError('`in` filter values must be written as (a,b,c)');
  }
  const values = split(raw.slice(1, -1), ',').map((p) => (p.quoted ? p.text : p.text.trim()));
  if (values.length > MAX_IN_VALUES) {
    throw new FilterError(`\`in\` filter accepts at most ${MAX_IN_VALUES} values`);
  }
  return values;
}

function parseCondition(text: string): FilterCondition {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new FilterError(`invalid filter "${text}"`);
  const column = text.slice(0, eq);
  let rest = text.slice(eq + 1);
  const negate = rest.startsWith('not.');
  if (negate) rest = rest.slice(4);
  const dot = rest.indexOf('.');
  if (dot < 0) throw new FilterError(`invalid filter "${text}"`);
  const op = rest.slice(0, dot) as FilterOp;
  const raw = rest.slice(dot + 1);
  if (!OPS.includes(op)) throw new FilterError(`unknown filter operator "${op}"`);
  if (op === 'in') return { column, op, negate, value: parseList(raw) };
  const [scalar] = split(raw, '\u0000');
  const value = scalar!.text;
  if (op === 'is' && !IS_VALUES.includes(value.toLowerCase())) {
    throw new FilterError('`is` accepts null, true, false or unknown');
  }
  return { column, op, negate, value };
}

/** Returns null for an absent/empty filter; throws FilterError for one it cannot honour. */
export function parseFilter(filter: unknown): ChangeFilter | null {
  if (filter === undefined || filter === null || filter === '') return null;
  if (typeof filter !== 'string') throw new FilterError('filter must be a string');
  return { conditions: split(filter, ',').map((p) => parseCondition(p.raw)) };
}
