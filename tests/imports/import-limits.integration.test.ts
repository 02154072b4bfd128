// The limits of SPEC §5 (made small here through POSTBOX_IMPORT_MAX_ROWS/_BYTES) reject a file
// before any row is written; a run out of budget continues in a fresh invocation; only admins and
// owners may queue, upload or start an import (RLS and the function both refuse everyone else).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { callFunction, sql } from '../functions/kit';
import {
  clientAs,
  importCsv,
  member,
  queueImport,
  startImport,
  startImportEmulator,
  waitForImport,
  type Member,
} from './kit';

let emu: RunningEmulator;
let admin: Member;

beforeAll(async () => {
  emu = await startImportEmulator({
    POSTBOX_IMPORT_MAX_ROWS: '1200',
    POSTBOX_IMPORT_MAX_BYTES: '60000',
    POSTBOX_IMPORT_BATCH_ROWS: '500',
    // Every run stops after one batch, so each import below hands on to fresh runs.
    POSTBOX_IMPORT_BUDGET_MS: '1',
  });
  admin = await member(emu, 'admin');
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

function rows(tag: string, count: number): string {
  const lines = ['email'];
  for (let i = 0; i < count; i++) lines.push(`${tag}-${i}@example.com`);
  return lines.join('\n') + '\n';
}

async function stored(tag: string): Promise<number> {
  const [row] = await sql<{ n: number }>(
    emu,
    `select count(*)::int as n from public.subscribers where email like $1`,
    [`${tag}-%`],
  );
  return row!.n;
}

describe('limits', () => {
  it('imports a file of exactly the row limit across several runs', async () => {
    const tag = `limit${Date.now()}`;
    const result = await importCsv(emu, admin.token, rows(tag, 1200));
    expect(result).toMatchObject({ status: 'done', total_rows: 1200, inserted: 1200 });
    expect(await stored(tag)).toBe(1200);
  }, 120_000);

  it('rejects one row over the limit before writing any row', async () => {
    const tag = `over${Date.now()}`;
    const result = await importCsv(emu, admin.token, rows(tag, 1201));
    expect(result).toMatchObject({
      status: 'failed',
      processed_rows: 0,
      failure_reason: 'The file has more than 1,200 rows.',
    });
    expect(await stored(tag)).toBe(0);
  });

  it('rejects a file over the size limit before writing any row', async () => {
    const tag = `size${Date.now()}`;
    const lines = ['email,bio'];
    for (let i = 0; i < 30; i++) lines.push(`${tag}-${i}@example.com,${'b'.repeat(2100)}`);
    const result = await importCsv(emu, admin.token, lines.join('\n'));
    expect(result).toMatchObject({ status: 'failed', processed_rows: 0 });
    expect(result.failure_reason).toMatch(/^The file is larger than 60000 bytes\.$/);
    expect(await stored(tag)).toBe(0);
  });
});

describe('progress', () => {
  it('keeps imports out of the realtime publication (the feed is the private team:imports topic)', async () => {
    const rows = await sql<{ tablename: string }>(
      emu,
      `select tablename from pg_publication_tables where pubname = 'supabase_realtime' and tablename = 'imports'`,
    );
    expect(rows).toEqual([]);
  });

  it('announces each committed batch to a signed-in admin, who reads the row as it moves', async () => {
    const client = clientAs(emu, admin.token);
    await client.realtime.setAuth(admin.token);
    const seen: number[] = [];
    const messages: Array<{ ids: string[] | null }> = [];
    let followed: string | null = null;
    // As the import dialog does: each message naming the import is followed by a read of its row.
    let reads = Promise.resolve();
    const channel = client
      .channel('team:imports', { config: { private: true } })
      .on('broadcast', { event: 'changed' }, ({ payload }) => {
        messages.push(payload as { ids: string[] | null });
        const ids = (payload as { ids: string[] | null }).ids;
        if (!followed || (ids && !ids.includes(followed))) return;
        const id = followed;
        reads = reads.then(async () => {
          const { data } = await client
            .from('imports')
            .select('processed_rows')
            .eq('id', id)
            .single();
          if (data) seen.push((data as { processed_rows: number }).processed_rows);
        });
      });
    await new Promise<void>((resolve, reject) =>
      channel.subscribe((status) => {
        if (status === 'SUBSCRIBED') resolve();
        else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(new Error(status));
      }),
    );
    try {
      followed = await queueImport(emu, admin.token, rows(`live${Date.now()}`, 1200));
      expect((await startImport(emu, admin.token, followed)).status).toBe(202);
      await waitForImport(emu, followed);
      const until = Date.now() + 10_000;
      while (!seen.includes(1200) && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 100));
      }
      await reads;
      // Batches of 500 commit in any order (several are applied at once), and processed_rows counts
      // the unbroken prefix of the file: it only moves forward, through at least one step.
      expect(seen.at(-1)).toBe(1200);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(seen.some((n) => n > 0 && n < 1200)).toBe(true);
      // One message per batch transaction, not one per row.
      expect(messages.length).toBeLessThan(20);
    } finally {
      await client.removeChannel(channel);
    }
  }, 120_000);
});

describe('who may import', () => {
  it('refuses viewers and editors in RLS (queue and upload) and in the function', async () => {
    const id = await queueImport(emu, admin.token, 'email\nrls@example.com\n');
    const [{ object_path: path }] = (await sql<{ object_path: string }>(
      emu,
      `select object_path from public.imports where id = $1`,
      [id],
    )) as [{ object_path: string }];
    expect(
      (await clientAs(emu, admin.token).storage.from('imports').download(path)).error,
    ).toBeNull();
    for (const role of ['viewer', 'editor'] as const) {
      const someone = await member(emu, role);
      const client = clientAs(emu, someone.token);
      const upload = await client.storage
        .from('imports')
        .upload(`${role}.csv`, new Blob(['email\n'], { type: 'text/csv' }), {
          contentType: 'text/csv',
        });
      expect(upload.error).not.toBeNull();
      const insert = await client.from('imports').insert({ object_path: `${role}.csv` });
      expect(insert.error?.code).toBe('42501');
      // Members may read imports (to follow progress), but not the uploaded files.
      const visible = await client.from('imports').select('id').eq('id', id);
      expect(visible.data).toEqual([{ id }]);
      const download = await client.storage.from('imports').download(path);
      expect(download.error).not.toBeNull();
      const call = await startImport(emu, someone.token, id);
      expect(call.status).toBe(403);
      expect(call.body.error.code).toBe('forbidden');
    }
    expect(
      (
        await sql<{ status: string }>(emu, `select status from public.imports where id = $1`, [id])
      )[0]!.status,
    ).toBe('queued');
  });

  it('refuses the anonymous key and a request without a token', async () => {
    const id = await queueImport(emu, admin.token, 'email\nanon@example.com\n');
    const anon = await callFunction(emu, 'import-subscribers', {
      bearer: emu.keys.anon,
      body: { import_id: id },
    });
    expect(anon.status).toBe(401);
    expect(anon.body.error.code).toBe('unauthenticated');
    const none = await callFunction(emu, 'import-subscribers', { body: { import_id: id } });
    expect(none.status).toBe(401);
    const anonInsert = await clientAs(emu, emu.keys.anon)
      .from('imports')
      .insert({ object_path: 'x.csv' });
    expect(anonInsert.error).not.toBeNull();
  });

  it('lets an admin queue only their own queued import with the allowed columns', async () => {
    const client = clientAs(emu, admin.token);
    const other = await member(emu, 'admin');
    const foreign = await client
      .from('imports')
      .insert({ object_path: 'a.csv', created_by: other.id });
    expect(foreign.error).not.toBeNull();
    const done = await client.from('imports').insert({ object_path: 'a.csv', status: 'done' });
    expect(done.error).not.toBeNull();
    const counted = await client.from('imports').insert({ object_path: 'a.csv', inserted: 5 });
    expect(counted.error).not.toBeNull();
    const unknownList = await client
      .from('imports')
      .insert({ object_path: 'a.csv', list_ids: ['00000000-0000-4000-8000-000000000000'] });
    expect(unknownList.error?.message).toMatch(/list/);
    // And nobody but the service role moves an import along.
    const id = await queueImport(emu, admin.token, 'email\nmove@example.com\n');
    const moved = await client.from('imports').update({ status: 'done' }).eq('id', id).select();
    expect(moved.data ?? []).toEqual([]);
    await startImport(emu, admin.token, id);
    expect((await waitForImport(emu, id)).status).toBe('done');
  }, 60_000);
});
