// Row-level security is on for every table of the project's own schemas, so a table added later
// without it fails here rather than being readable by whoever its grants happen to allow.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { sql, startFunctionsEmulator } from '../functions/kit';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startFunctionsEmulator();
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

it('has row-level security on every table in public and private', async () => {
  const tables = await sql<{ name: string; rls: boolean }>(
    emu,
    `select n.nspname || '.' || c.relname as name, c.relrowsecurity as rls
       from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname in ('public', 'private')
      order by 1`,
  );
  expect(tables.length).toBeGreaterThan(15);
  expect(tables.filter((t) => !t.rls).map((t) => t.name)).toEqual([]);
});
