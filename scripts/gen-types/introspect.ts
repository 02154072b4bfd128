// Describes schemas by querying the Postgres catalogue (introspect.sql) on any emulator database.
import type { Queryable } from '../../emulator/db/types.js';
import { loadNamedQueries } from './named-queries.js';
import type {
  CompositeType,
  DatabaseDescription,
  DbFunction,
  FunctionArg,
  Relation,
  SchemaDescription,
  TypeRef,
  View,
} from './schema.js';
import { viewForeignKeys, type ForeignKey, type ViewDefinition } from './view-relationships.js';

const QUERY_NAMES = [
  'relations',
  'columns',
  'relationships',
  'view_definitions',
  'functions',
  'enums',
  'composite_types',
] as const;

interface RelationRow {
  schema: string;
  name: string;
  kind: string;
  updatable: boolean;
}
interface ColumnRow {
  schema: string;
  relation: string;
  name: string;
  type_schema: string;
  type_name: string;
  nullable: boolean;
  has_default: boolean;
  identity: 'ALWAYS' | 'BY DEFAULT' | null;
  updatable: boolean;
}
interface FunctionRow {
  schema: string;
  name: string;
  returns_set: boolean;
  return_type_schema: string;
  return_type_name: string;
  returns_relation: string | null;
  n_defaults: number;
  args: { name: string; mode: string; type_schema: string; type_name: string }[];
}
interface EnumRow {
  schema: string;
  name: string;
  values: string[];
}
interface CompositeRow {
  schema: string;
  name: string;
  attributes: { name: string; type_schema: string; type_name: string }[];
}

const MODES: Record<string, FunctionArg['mode']> = {
  i: 'in',
  o: 'out',
  b: 'inout',
  v: 'variadic',
  t: 'table',
};
const ref = (schema: string, name: string): TypeRef => ({ schema, name });

function toFunction(row: FunctionRow): DbFunction {
  const args: FunctionArg[] = row.args.map((a) => {
    const mode = MODES[a.mode];
    if (!mode) throw new Error(`function ${row.name}: unknown argument mode "${a.mode}"`);
    return { name: a.name, mode, type: ref(a.type_schema, a.type_name), hasDefault: false };
  });
  // pg_proc keeps only a count of defaults: they belong to the last input arguments.
  const inputs = args.filter((a) => a.mode === 'in' || a.mode === 'inout' || a.mode === 'variadic');
  if (row.n_defaults > 0) inputs.slice(-row.n_defaults).forEach((a) => (a.hasDefault = true));
  return {
    name: row.name,
    args,
    returnType: ref(row.return_type_schema, row.return_type_name),
    returnsRelation: row.returns_relation,
    returnsSet: row.returns_set,
  };
}

export async function introspect(
  db: Queryable,
  schemaNames: readonly string[] = ['public'],
): Promise<DatabaseDescription> {
  const sql = await loadNamedQueries(new URL('./introspect.sql', import.meta.url), QUERY_NAMES);
  const params = [schemaNames];
  const relations = (await db.query<RelationRow>(sql.relations, params)).rows;
  const columns = (await db.query<ColumnRow>(sql.columns, params)).rows;
  const foreignKeys = (await db.query<ForeignKey>(sql.relationships, params)).rows;
  const viewDefinitions = (await db.query<ViewDefinition>(sql.view_definitions)).rows;
  const relationships = [...foreignKeys, ...viewForeignKeys(foreignKeys, viewDefinitions)];
  const functions = (await db.query<FunctionRow>(sql.functions, params)).rows;
  const enums = (await db.query<EnumRow>(sql.enums)).rows;
  const composites = (await db.query<CompositeRow>(sql.composite_types, params)).rows;

  const toRelation = (r: RelationRow): Relation => ({
    name: r.name,
    columns: columns
      .filter((c) => c.schema === r.schema && c.relation === r.name)
      .map((c) => ({
        name: c.name,
        type: ref(c.type_schema, c.type_name),
        nullable: c.nullable,
        hasDefault: c.has_default,
        identity: c.identity,
        updatable: c.updatable,
      })),
    // Like the CLI, only relationships inside one schema are typed.
    relationships: relationships
      .filter(
        (f) => f.schema === r.schema && f.relation === r.name && f.referenced_schema === r.schema,
      )
      .map((f) => ({
        foreignKeyName: f.foreign_key_name,
        columns: f.columns,
        isOneToOne: f.is_one_to_one,
        referencedRelation: f.referenced_relation,
        referencedColumns: f.referenced_columns,
      })),
  });

  const schemas: SchemaDescription[] = schemaNames.map((name) => ({
    name,
    tables: relations.filter((r) => r.schema === name && 'rpf'.includes(r.kind)).map(toRelation),
    views: relations
      .filter((r) => r.schema === name && 'vm'.includes(r.kind))
      .map((r): View => ({ ...toRelation(r), updatable: r.updatable })),
    functions: functions.filter((f) => f.schema === name).map(toFunction),
    enums: enums
      .filter((e) => e.schema === name)
      .map(({ name: n, values }) => ({ name: n, values })),
    compositeTypes: composites
      .filter((c) => c.schema === name)
      .map((c): CompositeType => ({
        name: c.name,
        attributes: c.attributes.map((a) => ({
          name: a.name,
          type: ref(a.type_schema, a.type_name),
        })),
      })),
  }));
  return { schemas, externalEnums: enums.filter((e) => !schemaNames.includes(e.schema)) };
}
