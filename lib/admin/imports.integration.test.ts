// The dialog's calls against the emulator as a signed-in admin: queue the import (createImport)
// with a channel joined before it existed, start it (startImport), hear every committed batch,
// then export the imported list with the page's filters (exportSubscribers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import {
  clientAs,
  member,
  startImportEmulator,
  waitForImport,
  type Member,
} from '../../tests/imports/kit';
import { sql } from '../../tests/functions/kit';
import { exportSubscribers } from './export';
import { rulesFromFilters } from './subscriber-rules';
import { createImport, importObjectPath, startImport, type ImportView } from './imports';
import { NO_FILTERS } from './subscriber-query';

let emu: RunningEmulator;
let admin: Member;

beforeAll(async () => {
  emu = await startImportEmulator({ POSTBOX_IMPORT_BATCH_ROWS: '500' });
  admin = await member(emu, 'admin');
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

describe('an import followed live by id', () => {
  it('hears each batch on a channel joined before queueing, and exports what it added', async () => {
    const client = clientAs(emu, admin.token);
    await client.realtime.setAuth(admin.token);
    const tag = `live${Date.now()}`;
    const [list] = await sql<{ id: string; slug: string }>(
      emu,
      `insert into public.lists (slug, name, visibility, optin) values ($1, $1, 'private', 'single') returning id, slug`,
      [tag],
    );
    const csv = [
      'email,name',
      ...Array.from({ length: 1200 }, (_, i) => `${tag}-${i}@example.com,N ${i}`),
    ].join('\n');
    const path = importObjectPath(admin.id, 'people.csv');
    const upload = await client.storage
      .from('imports')
      .upload(path, new Blob([csv], { type: 'text/csv' }), { contentType: 'text/csv' });
    expect(upload.error).toBeNull();
    // Joined before the import exists, as the dialog does (it opens the channel on opening).
    let importId = '';
    const seen: number[] = [];
    // As the dialog does: each team:imports message naming the import is followed by a read.
    let reads = Promise.resolve();
    let announced = 0;
    const channel = client
      .channel('team:imports', { config: { private: true } })
      .on('broadcast', { event: 'changed' }, ({ payload }) => {
        const ids = (payload as { ids: string[] | null }).ids;
        if (!importId || (ids && !ids.includes(importId))) return;
        announced++;
        const id = importId;
        reads = reads.then(async () => {
          const { data } = await client.from('imports').select('*').eq('id', id).single();
          if (data) seen.push((data as ImportView).processed_rows);
        });
      });
    await new Promise<void>((resolve, reject) =>
      channel.subscribe((status) => {
        if (status === 'SUBSCRIBED') resolve();
        else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(new Error(status));
      }),
    );
    const row = await createImport(client, {
      objectPath: path,
      listIds: [list!.id],
      optin: 'confirmed',
    });
    expect(row).toMatchObject({ status: 'queued', processed_rows: 0, list_ids: [list!.id] });
    importId = row.id;
    try {
      await startImport(client, row.id);
      const done = await waitForImport(emu, row.id);
      expect(done).toMatchObject({ status: 'done', inserted: 1200 });
      const deadline = Date.now() + 10_000;
      while (!seen.includes(1200) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      await reads;
      // A message per committed batch (500, 1000, 1200) at least; each read sees the row as it
      // is by then, so it moves forward and ends at the total.
      expect(announced).toBeGreaterThanOrEqual(3);
      expect(seen).toEqual([...seen].sort((x, y) => x - y));
      expect(seen.at(-1)).toBe(1200);
    } finally {
      await client.removeChannel(channel);
    }

    const exported = await exportSubscribers(
      client,
      rulesFromFilters({ ...NO_FILTERS, listId: list!.id, search: `${tag}-11` }),
    );
    // -11, -110…-119 and -1100…-1199: 1 + 10 + 100.
    expect(exported.rows).toBe(111);
    const text = await (await fetch(exported.url)).text();
    expect(text.trim().split(/\r?\n/)).toHaveLength(112);
  }, 120_000);
});
