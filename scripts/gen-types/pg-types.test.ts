// Unit tests for the Postgres → TypeScript type mapping (postgres-meta's pgTypeToTsType rules).
import { describe, expect, it } from 'vitest';
import { pgTypeToTs } from './pg-types.js';
import type { DatabaseDescription } from './schema.js';

const db: DatabaseDescription = {
  externalEnums: [{ schema: 'auth', name: 'factor_type', values: ['totp', 'webauthn'] }],
  schemas: [
    {
      name: 'public',
      tables: [{ name: 'lists', columns: [], relationships: [] }],
      views: [{ name: 'list_sizes', columns: [], relationships: [], updatable: false }],
      functions: [],
      enums: [{ name: 'status', values: ['a', 'b'] }],
      compositeTypes: [{ name: 'address', attributes: [] }],
    },
  ],
};
const ts = (name: string, schema = 'pg_catalog') => pgTypeToTs({ schema, name }, db);

describe('pgTypeToTs', () => {
  it.each([
    ['bool', 'boolean'],
    ['int2', 'number'],
    ['int4', 'number'],
    ['int8', 'number'],
    ['float8', 'number'],
    ['numeric', 'number'],
    ['text', 'string'],
    ['varchar', 'string'],
    ['citext', 'string'],
    ['uuid', 'string'],
    ['date', 'string'],
    ['timestamptz', 'string'],
    ['bytea', 'string'],
    ['json', 'Json'],
    ['jsonb', 'Json'],
    ['void', 'undefined'],
    ['record', 'Record<string, unknown>'],
    ['tstzrange', 'unknown'],
    ['tsvector', 'unknown'],
  ])('%s → %s', (pg, expected) => {
    expect(ts(pg)).toBe(expected);
  });

  it('maps arrays element-wise, nested arrays included', () => {
    expect(ts('_int4')).toBe('(number)[]');
    expect(ts('_jsonb')).toBe('(Json)[]');
    expect(ts('_status', 'public')).toBe('(Database["public"]["Enums"]["status"])[]');
  });

  it('refers to enums, composite types, tables and views of rendered schemas', () => {
    expect(ts('status', 'public')).toBe('Database["public"]["Enums"]["status"]');
    expect(ts('address', 'public')).toBe('Database["public"]["CompositeTypes"]["address"]');
    expect(ts('lists', 'public')).toBe('Database["public"]["Tables"]["lists"]["Row"]');
    expect(ts('list_sizes', 'public')).toBe('Database["public"]["Views"]["list_sizes"]["Row"]');
  });

  it('inlines enums of other schemas and leaves other unknown types unknown', () => {
    expect(ts('factor_type', 'auth')).toBe('"totp" | "webauthn"');
    expect(ts('status', 'other')).toBe('unknown');
  });
});
