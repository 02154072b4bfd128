// The description of one database schema that gen-types introspects and renders (no SQL, no TS).

/** A Postgres type by name, as `pg_type.typname` spells it (`int4`, `_text`, `status`). */
export interface TypeRef {
  schema: string;
  /** `typname`; arrays keep Postgres's leading underscore (`_int4`), domains are their base type. */
  name: string;
}

export interface Column {
  name: string;
  type: TypeRef;
  nullable: boolean;
  /** A default expression exists (also true for generated columns, whose expression lives there). */
  hasDefault: boolean;
  /** `generated always as identity` → 'ALWAYS', `by default` → 'BY DEFAULT'. */
  identity: 'ALWAYS' | 'BY DEFAULT' | null;
  /** For views: whether the column can be written through the view. */
  updatable: boolean;
}

export interface Relationship {
  foreignKeyName: string;
  columns: string[];
  /** The referencing columns are exactly a primary key or unique constraint. */
  isOneToOne: boolean;
  referencedRelation: string;
  referencedColumns: string[];
}

export interface Relation {
  name: string;
  columns: Column[];
  relationships: Relationship[];
}

export interface View extends Relation {
  /** Auto-updatable views get Insert/Update types, as PostgREST can write through them. */
  updatable: boolean;
}

export interface FunctionArg {
  /** '' for an unnamed argument. */
  name: string;
  type: TypeRef;
  /** in / inout / variadic are inputs; out and table are outputs. */
  mode: 'in' | 'out' | 'inout' | 'variadic' | 'table';
  hasDefault: boolean;
}

export interface DbFunction {
  name: string;
  args: FunctionArg[];
  returnType: TypeRef;
  /** Set when the function returns a table's or view's row type (`returns items` / `setof items`). */
  returnsRelation: string | null;
  returnsSet: boolean;
}

export interface EnumType {
  name: string;
  values: string[];
}

export interface CompositeType {
  name: string;
  attributes: { name: string; type: TypeRef }[];
}

export interface SchemaDescription {
  name: string;
  tables: Relation[];
  views: View[];
  functions: DbFunction[];
  enums: EnumType[];
  compositeTypes: CompositeType[];
}

/** An enum from a schema that is not rendered, used by a rendered column (inlined as a union). */
export interface ExternalEnum extends EnumType {
  schema: string;
}

export interface DatabaseDescription {
  /** Rendered schemas (Postbox: `public`). */
  schemas: SchemaDescription[];
  externalEnums: ExternalEnum[];
}
