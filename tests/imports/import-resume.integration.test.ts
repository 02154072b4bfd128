// An import that stops mid-file (a run dying after a committed batch) and is started again resumes
// after the last committed batch: exact counts, no duplicate rows or events; the scheduler restarts
// one whose run died; two runs never share one import.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { sql } from '../functions/kit';
import {
  importRow,
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
  // Batches of 500 (not SPEC's 5,000) keep this short on the embedded database; the logic is the same.
  emu = await startImportEmulator({
    POSTBOX_IMPORT_LEASE_SECONDS: '60',
    POSTBOX_IMPORT_BATCH_ROWS: '500',
  });
  admin = await member(emu, 'admin');
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

/** `count` rows `<tag>-<i>@example.com`; every 100th row (from the 7th) has a bad address. */
function bigCsv(tag: string, count: number): { csv: string; badLines: number[] } {
  const lines = ['email,name,n'];
  const badLines: number[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 100 === 7) {
      lines.push(`broken-${i},Bad,${i}`);
      badLines.push(i + 2);
    } else lines.push(`${tag}-${i}@example.com,"Person, ${i}",${i}`);
  }
  return { csv: lines.join('\r\n') + '\r\n', badLines };
}

async function countsFor(tag: string) {
  const [row] = await sql<{
    subscribers: number;
    imported: number;
    subscribed: number;
    subs: number;
  }>(
    emu,
    `select (select count(*)::int from public.subscribers where email like $1) as subscribers,
            (select count(*)::int from public.events e join public.subscribers s on s.id = e.subscriber_id
              where s.email like $1 and e.type = 'imported') as imported,
            (select count(*)::int from public.events e join public.subscribers s on s.id = e.subscriber_id
              where s.email like $1 and e.type = 'subscribed') as subscribed,
            (select count(*)::int from public.subscriptions x join public.subscribers s on s.id = x.subscriber_id
              where s.email like $1) as subs`,
    [`${tag}-%`],
  );
  return row!;
}

describe('resuming', () => {
  it('resumes after the last committed batch when a run dies', async () => {
    const tag = `resume${Date.now()}`;
    const { csv, badLines } = bigCsv(tag, 1_200);
    const id = await queueImport(emu, admin.token, csv, { lists: ['product-updates'] });
    const first = await startImport(emu, admin.token, id, { crash_after_batches: 1 });
    expect(first.status).toBe(202);
    expect(first.body.import).toMatchObject({ id, status: 'running' });
    // The run "dies" after committing its first batch: the lease stays taken.
    const stuck = await waitForImport(emu, id, (row) => row.processed_rows >= 500);
    expect(stuck).toMatchObject({
      status: 'running',
      total_rows: 1_200,
      processed_rows: 500,
      inserted: 495,
      skipped: 5,
    });
    await new Promise((r) => setTimeout(r, 500));
    expect((await importRow(emu, id)).processed_rows).toBe(500);

    // While the lease holds, a second start does not run it twice.
    const blocked = await startImport(emu, admin.token, id);
    expect(blocked.status).toBe(202);
    await new Promise((r) => setTimeout(r, 500));
    expect((await importRow(emu, id)).processed_rows).toBe(500);

    // The lease runs out (as it would 60 s after a crash); starting again resumes.
    await sql(
      emu,
      `update public.imports set lease_until = now() - interval '1 second' where id = $1`,
      [id],
    );
    const resumed = await startImport(emu, admin.token, id);
    expect(resumed.status).toBe(202);
    const done = await waitForImport(emu, id);
    expect(done).toMatchObject({
      status: 'done',
      total_rows: 1_200,
      processed_rows: 1_200,
      inserted: 1_188,
      updated: 0,
      skipped: 12,
      error_count: 12,
    });
    expect(done.errors.map((e) => e.line)).toEqual(badLines);
    expect(await countsFor(tag)).toEqual({
      subscribers: 1_188,
      imported: 1_188,
      subscribed: 1_188,
      subs: 1_188,
    });
    const [seen] = await sql<{ n: number }>(
      emu,
      `select count(*)::int as n from private.import_emails where import_id = $1`,
      [id],
    );
    expect(seen!.n).toBe(0);
  }, 120_000);

  it('is resumed by the scheduler, without a call, once the lease of a dead run expires', async () => {
    const [job] = await sql<{ schedule: string }>(
      emu,
      `select schedule from cron.job where jobname = 'postbox-resume-imports'`,
    );
    expect(job?.schedule).toBe('15 seconds');
    const tag = `cron${Date.now()}`;
    const { csv } = bigCsv(tag, 1_200);
    const id = await queueImport(emu, admin.token, csv, { lists: ['product-updates'] });
    await startImport(emu, admin.token, id, { crash_after_batches: 1 });
    await waitForImport(emu, id, (row) => row.processed_rows >= 500);
    // The dead run's lease runs out (60 s after the crash in production); nobody calls again.
    await sql(
      emu,
      `update public.imports set lease_until = now() - interval '1 second' where id = $1`,
      [id],
    );
    const done = await waitForImport(emu, id, undefined, 60_000);
    expect(done).toMatchObject({ status: 'done', processed_rows: 1_200, inserted: 1_188 });
    expect(await countsFor(tag)).toEqual({
      subscribers: 1_188,
      imported: 1_188,
      subscribed: 1_188,
      subs: 1_188,
    });
  }, 120_000);

  it('lets only one of two simultaneous starts run the import', async () => {
    const tag = `twice${Date.now()}`;
    const { csv } = bigCsv(tag, 1_100);
    const id = await queueImport(emu, admin.token, csv, {
      lists: ['newsletter'],
      optin: 'pending',
    });
    const answers = await Promise.all([
      startImport(emu, admin.token, id),
      startImport(emu, admin.token, id),
    ]);
    expect(answers.map((a) => a.status)).toEqual([202, 202]);
    const done = await waitForImport(emu, id);
    expect(done).toMatchObject({
      status: 'done',
      processed_rows: 1_100,
      inserted: 1_089,
      skipped: 11,
    });
    expect(await countsFor(tag)).toEqual({
      subscribers: 1_089,
      imported: 1_089,
      subscribed: 1_089,
      subs: 1_089,
    });
  }, 120_000);

  it('answers a finished import as it is, without running it again', async () => {
    const id = await queueImport(emu, admin.token, `email\nagain-${Date.now()}@example.com\n`);
    await startImport(emu, admin.token, id);
    const done = await waitForImport(emu, id);
    const again = await startImport(emu, admin.token, id);
    expect(again.status).toBe(202);
    expect(again.body.import).toMatchObject({ id, status: 'done', inserted: done.inserted });
  });

  it('answers 404 for an unknown import and 422 for a malformed id', async () => {
    const unknown = await startImport(emu, admin.token, '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    const malformed = await startImport(emu, admin.token, 'nope');
    expect(malformed.status).toBe(422);
    expect(malformed.body.error).toMatchObject({ code: 'invalid_input', field: 'import_id' });
  });
});
