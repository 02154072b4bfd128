// Renders a DatabaseDescription as the TypeScript `supabase gen types typescript` writes, formatted
// with Prettier as the CLI's postgres-meta does (typescript parser, no semicolons) so output is stable.
import prettier from 'prettier';
import { HELPER_TYPES } from './helpers.js';
import { pgTypeToTs } from './pg-types.js';
import type {
  Column,
  DatabaseDescription,
  DbFunction,
  Relation,
  SchemaDescription,
  View,
} from './schema.js';

export interface RenderOptions {
  /**
   * What `__InternalSupabase.PostgrestVersion` says; supabase-js uses it to enable PostgREST 13+
   * typings (maxAffected, spreads on to-many). "12" keeps to what every hosted project supports.
   */
  postgrestVersion?: string;
}

const EMPTY = '[_ in never]: never';
const key = (value: string) => JSON.stringify(value);
// A fixed locale: localeCompare's default follows $LANG, which would make the output machine-dependent.
const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name, 'en');
const sorted = <T extends { name: string }>(items: T[]) => [...items].sort(byName);
// A newline after `{` keeps Prettier from collapsing the object, so every type reads as the CLI's.
const obj = (entries: string[]) => `{\n${entries.length ? entries.join('\n') : EMPTY}\n}`;

function rowFields(columns: Column[], db: DatabaseDescription): string[] {
  return sorted(columns).map(
    (c) => `${key(c.name)}: ${pgTypeToTs(c.type, db)}${c.nullable ? ' | null' : ''}`,
  );
}

// Insert: identity ALWAYS can never be written; nullable, identity and defaulted columns are optional.
function insertFields(columns: Column[], db: DatabaseDescription): string[] {
  return sorted(columns).map((c) => {
    if (c.identity === 'ALWAYS') return `${key(c.name)}?: never`;
    const optional = c.nullable || c.identity !== null || c.hasDefault;
    return `${key(c.name)}${optional ? '?' : ''}: ${pgTypeToTs(c.type, db)}${c.nullable ? ' | null' : ''}`;
  });
}

function updateFields(columns: Column[], db: DatabaseDescription): string[] {
  return sorted(columns).map((c) =>
    c.identity === 'ALWAYS'
      ? `${key(c.name)}?: never`
      : `${key(c.name)}?: ${pgTypeToTs(c.type, db)}${c.nullable ? ' | null' : ''}`,
  );
}

function viewWriteFields(columns: Column[], db: DatabaseDescription): string[] {
  return sorted(columns).map((c) =>
    c.updatable ? `${key(c.name)}?: ${pgTypeToTs(c.type, db)} | null` : `${key(c.name)}?: never`,
  );
}

function relationships(relation: Relation): string {
  const rels = [...relation.relationships].sort(
    (a, b) =>
      a.foreignKeyName.localeCompare(b.foreignKeyName, 'en') ||
      a.referencedRelation.localeCompare(b.referencedRelation, 'en') ||
      JSON.stringify(a.referencedColumns).localeCompare(JSON.stringify(b.referencedColumns), 'en'),
  );
  return `Relationships: [${rels
    .map(
      (r) => `{
        foreignKeyName: ${key(r.foreignKeyName)}
        columns: ${JSON.stringify(r.columns)}
        isOneToOne: ${r.isOneToOne}
        referencedRelation: ${key(r.referencedRelation)}
        referencedColumns: ${JSON.stringify(r.referencedColumns)}
      },`,
    )
    .join('\n')}]`;
}

const isInput = (mode: string) => mode === 'in' || mode === 'inout' || mode === 'variadic';

// PostgREST can only call a function with named arguments, or with one unnamed argument (the body).
function callable(fn: DbFunction): boolean {
  const inputs = fn.args.filter((a) => isInput(a.mode));
  return inputs.every((a) => a.name !== '') || inputs.length === 1;
}

// A function taking one row of a table is a computed field: PostgREST lets it be selected like a column.
function computedFields(table: Relation, schema: SchemaDescription, db: DatabaseDescription) {
  return sorted(schema.functions.filter(callable))
    .filter((fn) => {
      const inputs = fn.args.filter((a) => isInput(a.mode));
      return (
        inputs.length === 1 &&
        inputs[0]!.type.schema === schema.name &&
        inputs[0]!.type.name === table.name
      );
    })
    .map((fn) => `${key(fn.name)}: ${pgTypeToTs(fn.returnType, db)} | null`);
}

function renderTable(table: Relation, schema: SchemaDescription, db: DatabaseDescription) {
  return `${key(table.name)}: {
    Row: ${obj([...rowFields(table.columns, db), ...computedFields(table, schema, db)])}
    Insert: ${obj(insertFields(table.columns, db))}
    Update: ${obj(updateFields(table.columns, db))}
    ${relationships(table)}
  }`;
}

function renderView(view: View, db: DatabaseDescription) {
  const parts = [`Row: ${obj(rowFields(view.columns, db))}`];
  if (view.updatable) {
    parts.push(`Insert: ${obj(viewWriteFields(view.columns, db))}`);
    parts.push(`Update: ${obj(viewWriteFields(view.columns, db))}`);
  }
  parts.push(relationships(view));
  return `${key(view.name)}: {\n${parts.join('\n')}\n}`;
}

/** The table or view of this schema whose row type a function returns, if any. */
function returnedRelation(fn: DbFunction, schema: SchemaDescription): Relation | undefined {
  if (fn.returnType.schema !== schema.name || !fn.returnsRelation) return undefined;
  return [...schema.tables, ...schema.views].find((r) => r.name === fn.returnsRelation);
}

function renderReturns(fn: DbFunction, schema: SchemaDescription, db: DatabaseDescription) {
  const tableArgs = fn.args.filter((a) => a.mode === 'table');
  let type: string;
  if (tableArgs.length) {
    type = obj(tableArgs.map((a) => `${key(a.name)}: ${pgTypeToTs(a.type, db)}`));
  } else {
    const relation = returnedRelation(fn, schema);
    type = relation ? obj(rowFields(relation.columns, db)) : pgTypeToTs(fn.returnType, db);
  }
  return fn.returnsSet ? `(${type})[]` : type;
}

/**
 * Functions returning rows of a table or view tell supabase-js so (`SetofOptions`), which lets
 * `.rpc(...).select(...)` embed from the result; `from` is the row type of the single argument of a
 * computed relationship (`f(subscribers) returns setof lists`), otherwise "*".
 */
function setofOptions(fn: DbFunction, schema: SchemaDescription): string | null {
  const relation = returnedRelation(fn, schema);
  if (!relation || fn.args.some((a) => a.mode === 'table')) return null;
  const inputs = fn.args.filter((a) => isInput(a.mode));
  const only = inputs.length === 1 ? inputs[0]!.type : null;
  const from =
    only &&
    only.schema === schema.name &&
    schema.tables.concat(schema.views).some((r) => r.name === only.name)
      ? only.name
      : '*';
  return `SetofOptions: {\n    from: ${key(from)}
    to: ${key(relation.name)}
    isOneToOne: ${!fn.returnsSet}
    isSetofReturn: ${fn.returnsSet}
  }`;
}

function renderSignature(fn: DbFunction, schema: SchemaDescription, db: DatabaseDescription) {
  const inputs = fn.args.filter((a) => isInput(a.mode));
  const args = inputs.length
    ? `{ ${inputs.map((a) => `${key(a.name)}${a.hasDefault ? '?' : ''}: ${pgTypeToTs(a.type, db)}`).join('; ')} }`
    : 'never';
  const parts = [`Args: ${args}`, `Returns: ${renderReturns(fn, schema, db)}`];
  const setof = setofOptions(fn, schema);
  if (setof) parts.push(setof);
  // No newline after `{`: the CLI lets Prettier put short signatures on one line.
  return `{ ${parts.join('; ')} }`;
}

// Overloads become a union of whole signatures, as the CLI writes them since 2025.
function renderFunctions(schema: SchemaDescription, db: DatabaseDescription): string[] {
  const groups = new Map<string, DbFunction[]>();
  for (const fn of sorted(schema.functions.filter(callable))) {
    groups.set(fn.name, [...(groups.get(fn.name) ?? []), fn]);
  }
  return [...groups].map(
    ([name, overloads]) =>
      `${key(name)}: ${overloads.map((fn) => renderSignature(fn, schema, db)).join(' | ')}`,
  );
}

function renderSchema(schema: SchemaDescription, db: DatabaseDescription): string {
  const enums = sorted(schema.enums).map((e) => `${key(e.name)}: ${e.values.map(key).join(' | ')}`);
  const composites = sorted(schema.compositeTypes).map(
    (c) =>
      `${key(c.name)}: ${obj(c.attributes.map((a) => `${key(a.name)}: ${pgTypeToTs(a.type, db)} | null`))}`,
  );
  return `${key(schema.name)}: {
    Tables: ${obj(sorted(schema.tables).map((t) => renderTable(t, schema, db)))}
    Views: ${obj(sorted(schema.views).map((v) => renderView(v, db)))}
    Functions: ${obj(renderFunctions(schema, db))}
    Enums: ${obj(enums)}
    CompositeTypes: ${obj(composites)}
  }`;
}

function renderConstants(db: DatabaseDescription): string {
  return `export const Constants = {
    ${sorted(db.schemas)
      .map(
        (s) => `${key(s.name)}: {
          Enums: {\n${sorted(s.enums)
            .map((e) => `${key(e.name)}: [${e.values.map(key).join(', ')}],`)
            .join('\n')}\n},
        },`,
      )
      .join('\n')}
  } as const`;
}

/** The unformatted source; `renderDatabaseTypes` is what callers want. */
export function renderSource(db: DatabaseDescription, options: RenderOptions = {}): string {
  return `// Generated by \`npm run gen:types\` from supabase/migrations (the shape of \`supabase gen types typescript\`). Do not edit.

export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  // Allows to automatically instantiate createClient with right options
  // instead of createClient<Database, { PostgrestVersion: 'XX' }>(URL, KEY)
  __InternalSupabase: {
    PostgrestVersion: ${key(options.postgrestVersion ?? '12')}
  }
  ${sorted(db.schemas)
    .map((s) => renderSchema(s, db))
    .join('\n')}
}
${HELPER_TYPES}
${renderConstants(db)}
`;
}

export async function renderDatabaseTypes(
  db: DatabaseDescription,
  options: RenderOptions = {},
): Promise<string> {
  // Upstream's settings (postgres-meta typescript template), not the repository's .prettierrc, so the
  // file reads exactly like CLI output; it is listed in .prettierignore for that reason.
  return prettier.format(renderSource(db, options), { parser: 'typescript', semi: false });
}
