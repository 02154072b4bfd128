// The SQL contract behind parallel import batches (migration 20261122310100), called as
// import-subscribers calls it (supabase-js with the service key): batches reserved in file order
// and applied in any order count once each, keep the first occurrence of an address, move the
// resume position only over the unbroken prefix, and end the import only when nothing is missing.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { sql } from '../functions/kit';
import { clientAs, member, queueImport, startImportEmulator, type ImportRow } from './kit';

let emu: RunningEmulator;
let service: SupabaseClient;
let adminToken: string;

beforeAll(async () => {
  emu = await startImportEmulator();
  service = clientAs(emu, emu.keys.serviceRole);
  adminToken = (await member(emu, 'admin')).token;
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

type Row = { line: number; email: string; name: string; attributes: Record<string, string> };

/** A queued import (never started through the function) claimed by a run of our own. */
async function claimed(): Promise<{ id: string; token: string }> {
  const id = await queueImport(emu, adminToken, 'email\nplaceholder@example.com\n', {
    lists: ['product-updates'],
    optin: 'confirmed',
  });
  const token = randomUUID();
  const { error } = await service.rpc('claim_import', {
    p_import_id: id,
    p_token: token,
    p_lease_seconds: 60,
  });
  expect(error).toBeNull();
  return { id, token };
}

function row(line: number, email: string): Row {
  return { line, email, name: `Line ${line}`, attributes: {} };
}

async function reserve(
  imp: { id: string; token: string },
  from: number,
  rows: Row[],
  records: number,
  offset: number,
) {
  return service.rpc('reserve_import_batch', {
    p_import_id: imp.id,
    p_token: imp.token,
    p_from: from,
    p_records: records,
    p_offset: offset,
    p_line: from + records + 1,
    p_emails: rows.map((r) => r.email),
    p_lines: rows.map((r) => r.line),
  });
}

async function apply(imp: { id: string; token: string }, from: number, rows: Row[], done = false) {
  return service.rpc('apply_import_batch', {
    p_import_id: imp.id,
    p_token: imp.token,
    p_from: from,
    p_rows: rows,
    p_bad: [],
    p_done: done,
    p_lease_seconds: 60,
  }) as unknown as Promise<{
    data: ImportRow & { resume_offset: number };
    error: { message: string } | null;
  }>;
}

async function subscribers(tag: string): Promise<Array<{ email: string; name: string }>> {
  return sql(emu, `select email, name from public.subscribers where email like $1 order by email`, [
    `${tag}%`,
  ]);
}

describe('parallel import batches', () => {
  it('applies batches out of order once each, first occurrence first', async () => {
    const imp = await claimed();
    const t = `par${Date.now()}-`;
    const a = [
      row(2, `${t}a@example.com`),
      row(3, `${t}b@example.com`),
      row(4, `${t}c@example.com`),
    ];
    // Batch B repeats a's address on line 6: line 2 holds it, even though B commits first.
    const b = [
      row(5, `${t}d@example.com`),
      row(6, `${t}a@example.com`),
      row(7, `${t}e@example.com`),
    ];
    expect((await reserve(imp, 0, a, 3, 100)).error).toBeNull();
    expect((await reserve(imp, 3, b, 3, 200)).error).toBeNull();

    const afterB = await apply(imp, 3, b);
    expect(afterB.error).toBeNull();
    // B lies beyond a gap: its rows count, the resume position stays at the start.
    expect(afterB.data).toMatchObject({
      processed_rows: 0,
      inserted: 2,
      skipped: 1,
      resume_offset: 0,
    });
    expect(afterB.data.errors).toEqual([{ line: 6, reason: 'duplicate address in the file' }]);

    const afterA = await apply(imp, 0, a);
    expect(afterA.data).toMatchObject({
      processed_rows: 6,
      inserted: 5,
      skipped: 1,
      resume_offset: 200,
    });
    expect((await subscribers(t)).find((s) => s.email === `${t}a@example.com`)?.name).toBe(
      'Line 2',
    );

    // Applying a batch again (a retried call, a resumed run) changes nothing.
    const again = await apply(imp, 0, a);
    expect(again.error).toBeNull();
    expect(again.data).toMatchObject({ processed_rows: 6, inserted: 5 });
    const [events] = await sql<{ n: number }>(
      emu,
      `select count(*)::int as n from public.events e join public.subscribers s on s.id = e.subscriber_id
        where s.email like $1 and e.type = 'imported'`,
      [`${t}%`],
    );
    expect(events!.n).toBe(5);
    // An import into a newsletter gives no referral codes (only joining a waitlist does).
    const [codes] = await sql<{ n: number }>(
      emu,
      `select count(referral_code)::int as n from public.subscribers where email like $1`,
      [`${t}%`],
    );
    expect(codes!.n).toBe(0);

    // The (empty) last batch ends the import and forgets its addresses and batches.
    expect((await reserve(imp, 6, [], 0, 200)).error).toBeNull();
    const done = await apply(imp, 6, [], true);
    expect(done.data).toMatchObject({
      status: 'done',
      total_rows: 6,
      processed_rows: 6,
      inserted: 5,
    });
    const [left] = await sql<{ emails: number; batches: number }>(
      emu,
      `select (select count(*)::int from private.import_emails where import_id = $1) as emails,
              (select count(*)::int from private.import_batches where import_id = $1) as batches`,
      [imp.id],
    );
    expect(left).toEqual({ emails: 0, batches: 0 });
  });

  it('does not end an import while an earlier batch is missing, and writes nothing then', async () => {
    const imp = await claimed();
    const t = `gap${Date.now()}-`;
    const a = [row(2, `${t}a@example.com`)];
    const b = [row(3, `${t}b@example.com`)];
    await reserve(imp, 0, a, 1, 10);
    await reserve(imp, 1, b, 1, 20);
    const early = await apply(imp, 1, b, true);
    expect(early.error?.message).toMatch(/^postbox:conflict/);
    expect(await subscribers(t)).toEqual([]);
    expect((await apply(imp, 0, a)).data).toMatchObject({ processed_rows: 1, inserted: 1 });
    expect((await apply(imp, 1, b, true)).data).toMatchObject({
      status: 'done',
      processed_rows: 2,
    });
  });

  it('refuses a batch that was not reserved, and a run that does not hold the import', async () => {
    const imp = await claimed();
    const t = `refuse${Date.now()}-`;
    const rows = [row(2, `${t}a@example.com`)];
    expect((await apply(imp, 0, rows)).error?.message).toMatch(/^postbox:conflict/);
    const stranger = { id: imp.id, token: randomUUID() };
    expect((await reserve(stranger, 0, rows, 1, 10)).error?.message).toMatch(/^postbox:conflict/);
    await reserve(imp, 0, rows, 1, 10);
    expect((await apply(stranger, 0, rows)).error?.message).toMatch(/^postbox:conflict/);
    expect(await subscribers(t)).toEqual([]);
  });

  // A batch inserts the addresses it found no subscriber for plainly (migration 20261123100000).
  // One added by someone else after the lookup must not fail the batch: the insert waits for the
  // other transaction, fails on the unique key, and the batch takes the upsert for those rows.
  it('keeps a batch whole when one of its new addresses is added by someone else meanwhile', async (ctx) => {
    const dbUrl = emu.dbUrl;
    if (!dbUrl) return ctx.skip(); // two transactions at once: native Postgres only
    const imp = await claimed();
    const t = `race${Date.now()}-`;
    const rows = [row(2, `${t}a@example.com`), row(3, `${t}b@example.com`)];
    expect((await reserve(imp, 0, rows, 2, 100)).error).toBeNull();

    const other = new pg.Client({ connectionString: dbUrl });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(`insert into public.subscribers (email, name) values ($1, 'Signup')`, [
        `${t}b@example.com`,
      ]);
      const applying = apply(imp, 0, rows);
      // The batch read no subscriber for b (not committed) and now waits on the unique key.
      for (let i = 0; ; i++) {
        const [waiting] = await sql<{ n: number }>(
          emu,
          `select count(*)::int as n from pg_stat_activity
            where wait_event_type = 'Lock' and query like '%apply_import_batch%'`,
        );
        if (waiting!.n > 0) break;
        if (i > 200) throw new Error('the batch never waited for the other transaction');
        await new Promise((r) => setTimeout(r, 25));
      }
      await other.query('commit');
      const applied = await applying;
      expect(applied.error).toBeNull();
      expect(applied.data).toMatchObject({ inserted: 1, updated: 1, skipped: 0 });
    } finally {
      await other.end();
    }

    const stored = await sql<{ email: string; name: string; subs: number; created: boolean }>(
      emu,
      `select s.email, s.name,
              (select count(*)::int from public.subscriptions x
                where x.subscriber_id = s.id and x.status = 'confirmed') as subs,
              (select (e.data ->> 'created')::boolean from public.events e
                where e.subscriber_id = s.id and e.type = 'imported') as created
         from public.subscribers s where s.email like $1 order by s.email`,
      [`${t}%`],
    );
    expect(stored).toEqual([
      { email: `${t}a@example.com`, name: 'Line 2', subs: 1, created: true },
      { email: `${t}b@example.com`, name: 'Line 3', subs: 1, created: false },
    ]);
  });

  it('gives new subscribers time-ordered ids (UUID version 7), so big imports append to indexes', async () => {
    const t = `v7${Date.now()}-`;
    const first = await service
      .from('subscribers')
      .insert({ email: `${t}a@example.com` })
      .select('id')
      .single();
    await new Promise((r) => setTimeout(r, 5));
    const second = await service
      .from('subscribers')
      .insert({ email: `${t}b@example.com` })
      .select('id')
      .single();
    const ids = [first.data!.id as string, second.data!.id as string];
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The first 48 bits are the creation time in milliseconds.
    const millis = ids.map((id) => parseInt(id.replace(/-/g, '').slice(0, 12), 16));
    expect(millis[1]).toBeGreaterThan(millis[0]!);
    expect(Math.abs(millis[0]! - Date.now())).toBeLessThan(60_000);
    expect(ids[0]! < ids[1]!).toBe(true);
  });

  it('is for the service role only', async () => {
    const anon = clientAs(emu, emu.keys.publishable);
    const { error } = await anon.rpc('apply_import_batch', {
      p_import_id: randomUUID(),
      p_token: randomUUID(),
      p_from: 0,
      p_rows: [],
      p_bad: [],
      p_done: false,
      p_lease_seconds: 60,
    });
    expect(error?.code).toBe('42501');
  });
});
