// The pgrst event triggers (contract §6.3): DDL that can change the API notifies PostgREST to
// reload its schema cache, from the emulator and from a wire client; temporary objects never do.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { startTestProjectWithClient } from '../test-project.js';

let project: Awaited<ReturnType<typeof startTestProjectWithClient>>;
let emu: RunningEmulator;
let client: pg.Client;

beforeAll(async () => {
  project = await startTestProjectWithClient('pgrst-notify', {});
  ({ emu, client } = project);
}, 60_000);

afterAll(async () => {
  await project?.stop();
});

describe('schema cache notifications', () => {
  it('NOTIFY pgrst arrives after DDL, from the emulator and from a wire client', async () => {
    const payloads: string[] = [];
    const stop = await emu.db.listen('pgrst', (payload) => payloads.push(payload));
    try {
      await client.query('create table public.ddl_from_wire (id int)');
      await expect.poll(() => payloads.length, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
      await emu.db.exec('drop table public.ddl_from_wire');
      await expect.poll(() => payloads.length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
      expect(new Set(payloads)).toEqual(new Set(['reload schema']));
    } finally {
      await stop();
    }
  });

  it('temporary objects and plain data changes send nothing (as upstream)', async () => {
    const payloads: string[] = [];
    const stop = await emu.db.listen('pgrst', (payload) => payloads.push(payload));
    try {
      // Start from a quiet channel: what earlier DDL sent may still be on its way.
      await client.query(`notify pgrst, 'start'`);
      await expect.poll(() => payloads.includes('start'), { timeout: 5000 }).toBe(true);
      payloads.length = 0;
      await client.query('begin');
      await client.query('create temp table scratch (id int) on commit drop');
      await client.query('insert into scratch values (1)');
      await client.query('commit');
      await client.query('create temp table scratch_kept (id int)');
      await client.query('alter table scratch_kept add column note text');
      await client.query('drop table scratch_kept');
      // Notifications reach a listener in commit order: once the marker is in, anything the
      // statements above sent would have arrived before it.
      await client.query(`notify pgrst, 'marker'`);
      await expect.poll(() => payloads.includes('marker'), { timeout: 5000 }).toBe(true);
      expect(payloads).toEqual(['marker']);
      await client.query('create view public.ddl_view as select 1 as one');
      await client.query('drop view public.ddl_view');
      await expect.poll(() => payloads.length, { timeout: 5000 }).toBe(3);
      expect(payloads).toEqual(['marker', 'reload schema', 'reload schema']);
    } finally {
      await stop();
    }
  });
});
