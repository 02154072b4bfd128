// Maps a Postgres type to the TypeScript type `supabase gen types typescript` writes for it.
// Follows postgres-meta's `pgTypeToTsType` (src/server/templates/typescript.ts): int8 and numeric are
// `number` there although PostgREST can send big values as strings; we keep upstream's choice so the
// types match what the CLI generates for the same schema.
import type { DatabaseDescription, TypeRef } from './schema.js';

const NUMBER_TYPES = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric']);
const STRING_TYPES = new Set([
  'bytea',
  'bpchar',
  'varchar',
  'date',
  'text',
  'citext',
  'time',
  'timetz',
  'timestamp',
  'timestamptz',
  'uuid',
  'vector',
]);

const key = (value: string) => JSON.stringify(value);

export function pgTypeToTs(type: TypeRef, db: DatabaseDescription): string {
  const { name } = type;
  if (name === 'bool') return 'boolean';
  if (NUMBER_TYPES.has(name)) return 'number';
  if (STRING_TYPES.has(name)) return 'string';
  if (name === 'json' || name === 'jsonb') return 'Json';
  if (name === 'void') return 'undefined';
  if (name === 'record') return 'Record<string, unknown>';
  if (name.startsWith('_')) return `(${pgTypeToTs({ ...type, name: name.slice(1) }, db)})[]`;

  const schema = db.schemas.find((s) => s.name === type.schema);
  if (schema) {
    const ref = `Database[${key(schema.name)}]`;
    if (schema.enums.some((e) => e.name === name)) return `${ref}["Enums"][${key(name)}]`;
    if (schema.compositeTypes.some((c) => c.name === name)) {
      return `${ref}["CompositeTypes"][${key(name)}]`;
    }
    if (schema.tables.some((t) => t.name === name)) return `${ref}["Tables"][${key(name)}]["Row"]`;
    if (schema.views.some((v) => v.name === name)) return `${ref}["Views"][${key(name)}]["Row"]`;
  }
  const external = db.externalEnums.find((e) => e.schema === type.schema && e.name === name);
  if (external) return external.values.map(key).join(' | ');
  // Ranges, geometric types, tsvector, types of unrendered schemas: upstream writes unknown too.
  return 'unknown';
}
