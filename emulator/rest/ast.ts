// The parsed shape of a REST request's query string: select tree, filters, logic trees, order, paging.

export interface JsonPathStep {
  op: '->' | '->>';
  key: string;
}

/** A column, optionally followed by a JSON path (`data->a->>b`). */
export interface FieldRef {
  name: string;
  jsonPath: JsonPathStep[];
}

export type SelectItem =
  | { kind: 'star' }
  | { kind: 'column'; field: FieldRef; alias?: string; cast?: string }
  | {
      kind: 'embed';
      /** Table (or view) name the embed targets. */
      name: string;
      alias?: string;
      /** `!fk_name` or `!column` disambiguation. */
      hint?: string;
      joinType: 'inner' | 'left';
      spread: boolean;
      select: SelectItem[];
    }
  | {
      /** `count()`, `col.sum()`, `col::int.avg()::text` (PostgREST's aggregate functions). */
      kind: 'aggregate';
      fn: AggregateFn;
      /** Absent for a bare `count()`, which counts rows. */
      field?: FieldRef;
      alias?: string;
      /** `col::type.fn()`: the input's cast. */
      inputCast?: string;
      /** `col.fn()::type`: the result's cast. */
      cast?: string;
    };

export type AggregateFn = 'count' | 'sum' | 'avg' | 'max' | 'min';

export type FilterOp =
  | 'eq'
  | 'neq'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'like'
  | 'ilike'
  | 'match'
  | 'imatch'
  | 'is'
  | 'isdistinct'
  | 'in'
  | 'cs'
  | 'cd'
  | 'ov'
  | 'sl'
  | 'sr'
  | 'nxl'
  | 'nxr'
  | 'adj'
  | 'fts'
  | 'plfts'
  | 'phfts'
  | 'wfts';

export interface Filter {
  kind: 'filter';
  field: FieldRef;
  negate: boolean;
  op: FilterOp;
  /** `eq(any)`, `like(all)`: value is a `{a,b}` list compared with ANY/ALL. */
  quantifier?: 'any' | 'all';
  /** `fts(english)`: text search configuration. */
  ftsConfig?: string;
  /** Raw value; for `in` and quantified ops, the list of values. */
  value: string | string[];
}

export interface LogicTree {
  kind: 'logic';
  op: 'and' | 'or';
  negate: boolean;
  children: Condition[];
}

export type Condition = Filter | LogicTree;

export interface OrderTerm {
  field: FieldRef;
  /** `order=rel(col)`: order by a to-one embed's column. */
  relation?: string;
  dir?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

/** Filters, order and paging for one level of the select tree ('' is the root, 'a.b' an embed). */
export interface LevelQuery {
  conditions: Condition[];
  order: OrderTerm[];
  limit?: number;
  offset?: number;
}
