// Parses a postgres_changes `filter` string (`col=op.value`, contract §4.3) into a checked condition.

export type FilterOp = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in';

export interface ChangeFilter {
  column: string;
  op: FilterOp;
  /** A single value, or the list for `in`. Compared after a cast to the column's type. */
  value: string | string[];
}

const OPS: readonly FilterOp[] = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in'];
/** Upstream caps `in` lists at 100 values (realtime PostgresCdcRls filter parsing). */
const MAX_IN_VALUES = 100;

export class FilterError extends Error {}

/** Splits `(a,b,"c,d")` into its values; double quotes group a value containing commas. */
function parseList(raw: string): string[] {
  if (!raw.startsWith('(') || !raw.endsWith(')')) {
    throw new FilterError('`in` filter values must be written as (a,b,c)');
  }
  const inner = raw.slice(1, -1);
  const values: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of inner) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      values.push(current.trim());
      current = '';
    } else current += ch;
  }
  values.push(current.trim());
  if (values.length > MAX_IN_VALUES) {
    throw new FilterError(`\`in\` filter accepts at most ${MAX_IN_VALUES} values`);
  }
  return values;
}

/** Returns null for an absent/empty filter; throws FilterError for one it cannot honour. */
export function parseFilter(filter: unknown): ChangeFilter | null {
  if (filter === undefined || filter === null || filter === '') return null;
  if (typeof filter !== 'string') throw new FilterError('filter must be a string');
  const eq = filter.indexOf('=');
  const dot = filter.indexOf('.', eq + 1);
  if (eq <= 0 || dot < 0) throw new FilterError(`invalid filter "${filter}"`);
  const column = filter.slice(0, eq);
  const op = filter.slice(eq + 1, dot);
  const raw = filter.slice(dot + 1);
  if (!OPS.includes(op as FilterOp)) {
    // like/ilike/is/not./AND lists exist upstream on newer servers (contract §4.3, E rows).
    throw new FilterError(`filter operator "${op}" is not supported by the emulator`);
  }
  return { column, op: op as FilterOp, value: op === 'in' ? parseList(raw) : raw };
}
