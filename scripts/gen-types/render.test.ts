// Unit tests for the renderer: a fixture schema description → the exact file the CLI would write.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { fixture } from './fixtures/schema.js';
import { renderDatabaseTypes } from './render.js';
import type { DatabaseDescription } from './schema.js';

const empty: DatabaseDescription = {
  externalEnums: [],
  schemas: [
    { name: 'public', tables: [], views: [], functions: [], enums: [], compositeTypes: [] },
  ],
};

describe('renderDatabaseTypes', () => {
  it('renders the fixture schema exactly as expected.types.txt', async () => {
    const expected = await readFile(
      new URL('./fixtures/expected.types.txt', import.meta.url),
      'utf8',
    );
    expect(await renderDatabaseTypes(fixture)).toBe(expected);
  });

  it('is stable: rendering twice, or from reordered input, gives the same text', async () => {
    const reordered: DatabaseDescription = {
      ...fixture,
      schemas: fixture.schemas.map((s) => ({
        ...s,
        tables: [...s.tables].reverse().map((t) => ({ ...t, columns: [...t.columns].reverse() })),
        // Overloads of one name keep their (creation) order; everything else is shuffled.
        functions: [...s.functions].sort((a, b) => b.name.localeCompare(a.name)),
      })),
    };
    const first = await renderDatabaseTypes(fixture);
    expect(await renderDatabaseTypes(fixture)).toBe(first);
    expect(await renderDatabaseTypes(reordered)).toBe(first);
  });

  it('writes identity, default and nullable rules into Insert and Update', async () => {
    const out = await renderDatabaseTypes(fixture);
    const table = out.slice(
      out.indexOf('subscribers: {'),
      out.indexOf('Relationships: [', out.indexOf('subscribers: {')),
    );
    const insert = table.slice(table.indexOf('Insert: {'), table.indexOf('Update: {'));
    const update = table.slice(table.indexOf('Update: {'));
    expect(insert).toContain('id?: never'); // generated always as identity
    expect(insert).toContain('seq?: number'); // by default identity: optional, writable
    expect(insert).toContain('email: string'); // not null, no default: required
    expect(insert).toContain('status?: Database["public"]["Enums"]["status"]'); // default
    expect(insert).toContain('score?: number | null'); // nullable
    expect(update).toContain('email?: string');
    expect(update).toContain('id?: never');
  });

  it('renders an empty schema with never-maps, the helper types and Constants', async () => {
    const out = await renderDatabaseTypes(empty);
    expect(out).toContain('Tables: {\n      [_ in never]: never\n    }');
    expect(out).toContain('export type Tables<');
    expect(out).toContain('export type TablesInsert<');
    expect(out).toContain('export type TablesUpdate<');
    expect(out).toContain('export type Enums<');
    expect(out).toContain('export type Json =');
    expect(out).toContain('PostgrestVersion: "12"');
    expect(out).toMatch(/export const Constants = \{\n {2}public: \{\n {4}Enums: \{\},/);
  });

  it('takes the PostgREST version from the options', async () => {
    expect(await renderDatabaseTypes(empty, { postgrestVersion: '13' })).toContain(
      'PostgrestVersion: "13"',
    );
  });
});
