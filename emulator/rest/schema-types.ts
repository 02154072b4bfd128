// The shapes of the REST schema cache's catalogue rows (tables, columns, functions, keys), apart
// from the cache itself so relationships.ts can use them without importing the cache.

export interface Column {
  name: string;
  type: string;
  typname: string;
  nullable: boolean;
  hasDefault: boolean;
  generated: boolean;
}

export interface Table {
  schema: string;
  name: string;
  kind: string;
  columns: Column[];
  columnMap: Map<string, Column>;
  primaryKey: string[];
  /** Unique constraints and the primary key, for one-to-one detection. */
  uniqueKeys: string[][];
  /** Computed fields: name → quoted function taking this table's row (PostgREST "computed fields"). */
  computed: Map<string, string>;
}

export interface FunctionArg {
  name: string;
  type: string;
  mode: 'i' | 'o' | 'b' | 'v' | 't';
}

export interface DbFunction {
  schema: string;
  name: string;
  /** Input arguments only, in order. */
  args: FunctionArg[];
  nDefaults: number;
  returnsSet: boolean;
  returnType: string;
  returnsComposite: boolean;
  /**
   * The media type this function answers as it is (it returns a domain named like one, such as
   * `"text/plain"`), and that domain's base type; null for other functions.
   */
  mediaType: string | null;
  mediaBaseType: string | null;
  volatility: 'i' | 's' | 'v';
  /** The function's own settings that PostgREST hoists into the request's transaction. */
  hoistedSettings: Array<[string, string]>;
  /** `setof … rows 1`: as a computed relationship it embeds one object, as PostgREST's single_row. */
  singleRow: boolean;
}

/** A foreign key as schema-cache.sql reads it. */
export interface ForeignKeyRow {
  name: string;
  schema: string;
  table: string;
  columns: string[];
  ref_schema: string;
  ref_table: string;
  ref_columns: string[];
}

/** A view column's source table, for relationships through views. */
export interface ViewSourceRow {
  schema: string;
  view: string;
  source_schema: string;
  source_table: string;
}
