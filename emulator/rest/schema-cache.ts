// The REST schema cache: tables, columns, keys, relationships and functions of the exposed schemas.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Queryable } from '../db/types.js';
import { buildRelationships, type Relationship } from './relationships.js';
import type {
  Column,
  DbFunction,
  ForeignKeyRow,
  FunctionArg,
  Table,
  ViewSourceRow,
} from './schema-types.js';

export type { Column, DbFunction, FunctionArg, Table } from './schema-types.js';

export interface SchemaCache {
  tables: Map<string, Table>;
  functions: Map<string, DbFunction[]>;
  /** Relationships keyed by the source table's `schema.name`. */
  relationships: Map<string, Relationship[]>;
  /** Timeouts set on roles (`alter role anon set statement_timeout = '3s'`), by role. */
  roleSettings: Map<string, Array<[string, string]>>;
  /** Every role → whether `authenticator` may switch to it. */
  switchableRoles: Map<string, boolean>;
}

/** Role settings PostgREST re-applies per request for the impersonated role (and authenticator). */
const ROLE_SETTINGS = new Set([
  'statement_timeout',
  'lock_timeout',
  'idle_in_transaction_session_timeout',
  'work_mem',
]);

/**
 * PostgREST's default `db-hoisted-tx-settings`: a function's own `SET` of these is applied to the
 * whole request transaction before the call, since a statement_timeout set only while the
 * function runs would come too late (the timer starts with the statement).
 */
const HOISTED_SETTINGS = new Set([
  'statement_timeout',
  'plan_filter.statement_cost_limit',
  'default_transaction_isolation',
]);

/** `name=value` items (pg_db_role_setting.setconfig, pg_proc.proconfig) whose name is in `names`. */
function settingsIn(items: string[] | null, names: ReadonlySet<string>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const item of items ?? []) {
    const eq = item.indexOf('=');
    if (eq > 0 && names.has(item.slice(0, eq))) out.push([item.slice(0, eq), item.slice(eq + 1)]);
  }
  return out;
}

export const tableKey = (schema: string, name: string) => `${schema}.${name}`;

/** Named queries from schema-cache.sql (`-- name: x` blocks); a missing name is a startup bug. */
function loadQueries(): Map<string, string> {
  const text = readFileSync(fileURLToPath(new URL('./schema-cache.sql', import.meta.url)), 'utf8');
  const queries = new Map<string, string>();
  for (const block of text.split(/^-- name: /m).slice(1)) {
    const newline = block.indexOf('\n');
    queries.set(
      block.slice(0, newline).trim(),
      block
        .slice(newline + 1)
        .trim()
        .replace(/;$/, ''),
    );
  }
  return queries;
}

const QUERIES = loadQueries();
function sql(name: string): string {
  const text = QUERIES.get(name);
  if (!text) throw new Error(`schema-cache.sql has no query named ${name}`);
  return text;
}

interface TableRow {
  schema: string;
  name: string;
  kind: string;
  columns: Column[];
}
interface KeyRow {
  schema: string;
  table: string;
  name: string;
  type: string;
  columns: string[];
}
interface FunctionRow {
  schema: string;
  name: string;
  args: FunctionArg[];
  n_defaults: number;
  returns_set: boolean;
  return_type: string;
  returns_composite: boolean;
  media_type: string | null;
  media_base_type: string | null;
  volatility: 'i' | 's' | 'v';
  config: string[] | null;
  single_row: boolean;
}

/** Reads the catalogue. Run as the connection's own (superuser) role, outside any request. */
export async function loadSchemaCache(db: Queryable, schemas: string[]): Promise<SchemaCache> {
  const tablesResult = await db.query<TableRow>(sql('tables'), [schemas]);
  const keysResult = await db.query<KeyRow>(sql('keys'), [schemas]);
  const fksResult = await db.query<ForeignKeyRow>(sql('foreign_keys'), [schemas]);
  const viewsResult = await db.query<ViewSourceRow>(sql('view_sources'), [schemas]);
  const functionsResult = await db.query<FunctionRow>(sql('functions'), [schemas]);
  const settingsResult = await db.query<{ role: string; settings: string[] }>(sql('role_settings'));
  const rolesResult = await db.query<{ role: string; allowed: boolean }>(sql('switchable_roles'));
  const switchableRoles = new Map(rolesResult.rows.map((r) => [r.role, r.allowed]));
  const roleSettings = new Map<string, Array<[string, string]>>();
  for (const row of settingsResult.rows) {
    const list = roleSettings.get(row.role) ?? [];
    roleSettings.set(row.role, [...list, ...settingsIn(row.settings, ROLE_SETTINGS)]);
  }

  const tables = new Map<string, Table>();
  for (const row of tablesResult.rows) {
    tables.set(tableKey(row.schema, row.name), {
      schema: row.schema,
      name: row.name,
      kind: row.kind,
      columns: row.columns,
      columnMap: new Map(row.columns.map((c) => [c.name, c])),
      primaryKey: [],
      uniqueKeys: [],
      computed: new Map(),
    });
  }
  for (const key of keysResult.rows) {
    const table = tables.get(tableKey(key.schema, key.table));
    if (!table) continue;
    if (key.type === 'p') table.primaryKey = key.columns;
    table.uniqueKeys.push(key.columns);
  }

  const functions = new Map<string, DbFunction[]>();
  for (const row of functionsResult.rows) {
    const fn: DbFunction = {
      schema: row.schema,
      name: row.name,
      args: row.args.filter((a) => a.mode === 'i' || a.mode === 'b' || a.mode === 'v'),
      nDefaults: row.n_defaults,
      returnsSet: row.returns_set,
      returnType: row.return_type,
      returnsComposite: row.returns_composite,
      mediaType: row.media_type,
      mediaBaseType: row.media_type ? row.media_base_type : null,
      volatility: row.volatility,
      hoistedSettings: settingsIn(row.config, HOISTED_SETTINGS),
      singleRow: row.single_row,
    };
    const key = tableKey(row.schema, row.name);
    functions.set(key, [...(functions.get(key) ?? []), fn]);
  }

  addComputedFields(tables, functions);
  const relationships = buildRelationships(tables, fksResult.rows, viewsResult.rows);
  addComputedRelationships(tables, functions, relationships);
  return { tables, functions, relationships, roleSettings, switchableRoles };
}

/** The table a `format_type` name (`books`, `public.books`, `"My T"`) stands for. */
function tableOfType(
  tables: Map<string, Table>,
  typeName: string,
  schema: string,
): Table | undefined {
  const name = typeName.replace(/"/g, '');
  return tables.get(name.includes('.') ? name : `${schema}.${name}`);
}

/**
 * PostgREST's computed relationships: a function taking one table's row and returning rows of
 * another embeds like a relationship named after the function; it overrides a same-named FK one.
 */
function addComputedRelationships(
  tables: Map<string, Table>,
  functions: Map<string, DbFunction[]>,
  relationships: Map<string, Relationship[]>,
): void {
  for (const fns of functions.values()) {
    for (const fn of fns) {
      const arg = fn.args[0];
      if (fn.args.length !== 1 || !arg || !fn.returnsComposite) continue;
      const source = tableOfType(tables, arg.type, fn.schema);
      const target = tableOfType(tables, fn.returnType, fn.schema);
      if (!source || !target) continue;
      const key = tableKey(source.schema, source.name);
      const kept = (relationships.get(key) ?? []).filter((r) => r.name !== fn.name);
      kept.push({
        name: fn.name,
        cardinality: fn.singleRow ? 'many-to-one' : 'one-to-many',
        constraint: fn.name,
        source,
        target,
        sourceColumns: [],
        targetColumns: [],
        computedFn: `"${fn.schema.replace(/"/g, '""')}"."${fn.name.replace(/"/g, '""')}"`,
      });
      relationships.set(key, kept);
    }
  }
}

/** A non-SETOF function whose only argument is a table's row type is a computed field of it. */
function addComputedFields(tables: Map<string, Table>, functions: Map<string, DbFunction[]>): void {
  for (const fns of functions.values()) {
    for (const fn of fns) {
      const arg = fn.args[0];
      if (fn.args.length !== 1 || !arg || fn.returnsSet) continue;
      const type = arg.type.replace(/"/g, '');
      for (const table of tables.values()) {
        if (type !== `${table.schema}.${table.name}` && type !== table.name) continue;
        if (table.schema !== fn.schema || table.columnMap.has(fn.name)) continue;
        table.computed.set(
          fn.name,
          `"${fn.schema.replace(/"/g, '""')}"."${fn.name.replace(/"/g, '""')}"`,
        );
      }
    }
  }
}
