// export-subscribers through the real function, storage and database: the CSV for a filter, the
// signed URL that downloads it and then expires, filter validation, who may export, and a page
// failing midway (an error, and no partial file).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { callFunction, sql } from '../functions/kit';
import { clientAs, importCsv, member, startImportEmulator, type Member } from './kit';

let emu: RunningEmulator;
let admin: Member;
const tag = `exp${Date.now()}`;

beforeAll(async () => {
  emu = await startImportEmulator({ POSTBOX_EXPORT_URL_SECONDS: '3' });
  admin = await member(emu, 'admin');
  await sql(
    emu,
    `insert into public.subscribers (email, name, attributes, created_at) values
       ($1 || '-a@example.com', 'Ada, "the first"', '{"plan":"pro"}', '2026-01-02T03:04:05Z'),
       ($1 || '-b@example.com', 'Bob', '{}', '2026-01-03T00:00:00Z'),
       ($1 || '-c@example.com', 'Cy', '{}', '2026-01-04T00:00:00Z')`,
    [tag],
  );
  await sql(
    emu,
    `insert into public.subscriptions (subscriber_id, list_id, status)
     select s.id, l.id, case when s.email like '%-a@%' then 'confirmed' else 'pending' end
       from public.subscribers s, public.lists l
      where s.email like $1 || '-%' and l.slug = 'product-updates'`,
    [tag],
  );
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

function exportAs(token: string, filters: unknown, progress?: unknown) {
  return callFunction(emu, 'export-subscribers', { bearer: token, body: { filters, progress } });
}

function parseLines(csv: string): string[] {
  return csv.split('\r\n').filter((line) => line !== '');
}

describe('export-subscribers', () => {
  it('writes the matching subscribers as CSV behind a signed URL', async () => {
    const answer = await exportAs(admin.token, {
      list: 'product-updates',
      status: 'confirmed',
      search: tag,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.rows).toBe(1);
    const download = await fetch(answer.body.url);
    expect(download.status).toBe(200);
    expect(parseLines(await download.text())).toEqual([
      'email,name,status,lists,created_at,attributes',
      `${tag}-a@example.com,"Ada, ""the first""",enabled,product-updates:confirmed,2026-01-02T03:04:05Z,"{""plan"": ""pro""}"`,
    ]);
  });

  it('guards cells a spreadsheet would run as formulas, and the import reads them back unguarded', async () => {
    const email = `-${tag}-f@example.com`;
    const name = '=HYPERLINK("https://evil.example/","click")';
    await sql(emu, `insert into public.subscribers (email, name) values ($1, $2)`, [email, name]);
    const answer = await exportAs(admin.token, { search: `-${tag}-f` });
    expect(answer.body.rows).toBe(1);
    const csv = await (await fetch(answer.body.url)).text();
    expect(parseLines(csv)[1]).toMatch(
      new RegExp(`^"'${email}","'=HYPERLINK\\(""https://evil\\.example/"",""click""\\)",enabled,,`),
    );
    // Read back in (the file as downloaded): the same subscriber, name unchanged, no new address.
    const result = await importCsv(emu, admin.token, csv);
    expect(result).toMatchObject({ status: 'done', inserted: 0, updated: 1, skipped: 0 });
    const rows = await sql<{ email: string; name: string }>(
      emu,
      `select email, name from public.subscribers where email like $1`,
      [`%-${tag}-f@example.com`],
    );
    expect(rows).toEqual([{ email, name }]);
  });

  it('filters by subscription status, subscriber status and search', async () => {
    const pending = await exportAs(admin.token, {
      list: 'product-updates',
      status: 'pending',
      search: tag.toUpperCase(),
    });
    expect(pending.body.rows).toBe(2);
    const text = await (await fetch(pending.body.url)).text();
    // Rows come in id order; compare the set of addresses.
    expect(
      parseLines(text)
        .slice(1)
        .map((line) => line.split(',')[0])
        .sort(),
    ).toEqual([`${tag}-b@example.com`, `${tag}-c@example.com`]);
    const blocked = await exportAs(admin.token, { subscriber_status: 'blocklisted' });
    const lines = parseLines(await (await fetch(blocked.body.url)).text());
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(['spam@example.com']);
    const everyone = await exportAs(admin.token, {});
    const [count] = await sql<{ n: number }>(
      emu,
      `select count(*)::int as n from public.subscribers`,
    );
    expect(everyone.body.rows).toBe(count!.n);
  });

  it('streams an export of several pages with every row once, in id order', async () => {
    // 5,000 rows a page: 12,345 rows take three pages, the last one partial.
    // Its own prefix per attempt: CI retries a failed test once, and these rows stay.
    const many = `${tag}many${randomUUID().slice(0, 6)}`;
    await sql(
      emu,
      `insert into public.subscribers (email, name)
       select $1 || '-' || lpad(i::text, 5, '0') || '@example.com', 'Reader ' || i
         from generate_series(1, 12345) i`,
      [many],
    );
    // The page listens for progress on a topic of its own, joined before it asks. Upper case: the
    // function broadcasts on the id exactly as given, since Realtime matches topics exactly.
    const progress = randomUUID().toUpperCase();
    const heard: number[] = [];
    const client = clientAs(emu, admin.token);
    const channel = client
      .channel(`export-progress:${progress}`)
      .on('broadcast', { event: 'progress' }, ({ payload }) => heard.push(payload.rows));
    // A socket error under load reports CHANNEL_ERROR, then supabase-js reconnects and joins
    // again by itself (as in the browser): wait for the join, not for the first status.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('not subscribed within 20 s')), 20_000);
      channel.subscribe((status) => {
        if (status !== 'SUBSCRIBED') return;
        clearTimeout(timer);
        resolve();
      });
    });
    const answer = await exportAs(admin.token, { search: many }, progress);
    expect(answer.status).toBe(200);
    expect(answer.body.rows).toBe(12345);
    // The first page is always reported (later ones at most twice a second). The reports are
    // fire-and-forget requests, so under load a later one can arrive first (the page keeps the
    // highest count it has heard): wait for the first page's, and expect whole pages (or the
    // total, when the last page comes more than an interval after the one before), each once.
    const deadline = Date.now() + 5_000;
    while (!heard.includes(5000) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await client.removeChannel(channel);
    expect(heard).toContain(5000);
    expect(heard.every((rows) => (rows % 5000 === 0 && rows <= 12345) || rows === 12345)).toBe(
      true,
    );
    expect(new Set(heard).size).toBe(heard.length);
    const lines = parseLines(await (await fetch(answer.body.url)).text());
    const emails = lines.slice(1).map((line) => line.split(',')[0]);
    expect(emails).toHaveLength(12345);
    expect(new Set(emails).size).toBe(12345);
    const expected = Array.from(
      { length: 12345 },
      (_, i) => `${many}-${String(i + 1).padStart(5, '0')}@example.com`,
    );
    expect([...emails].sort()).toEqual(expected);
    const rows = await sql<{ email: string }>(
      emu,
      `select email from public.subscribers where email like $1 || '-%' order by id`,
      [many],
    );
    expect(emails).toEqual(rows.map((row) => row.email));
  });

  it('lets the signed URL expire, and keeps the bucket private', async () => {
    const answer = await exportAs(admin.token, { search: tag });
    expect((await fetch(answer.body.url)).status).toBe(200);
    // Admins cannot read the bucket directly: only the signed URL opens the file.
    const direct = await clientAs(emu, admin.token)
      .storage.from('exports')
      .download(answer.body.path);
    expect(direct.error).not.toBeNull();
    await new Promise((r) => setTimeout(r, 4_500));
    const expired = await fetch(answer.body.url);
    expect(expired.ok).toBe(false);
  });

  it('checks the filters', async () => {
    const unknownList = await exportAs(admin.token, { list: 'no-such-list' });
    expect(unknownList.status).toBe(404);
    expect(unknownList.body.error.code).toBe('list_not_found');
    const badStatus = await exportAs(admin.token, { status: 'gone' });
    expect(badStatus.status).toBe(422);
    expect(badStatus.body.error.field).toBe('filters.status');
    const unknownKey = await exportAs(admin.token, { colour: 'red' });
    expect(unknownKey.body.error.field).toBe('filters.colour');
    const badProgress = await exportAs(admin.token, {}, 'not-a-uuid');
    expect([badProgress.status, badProgress.body.error.field]).toEqual([422, 'progress']);
  });

  it('exports by rules, the one filter format of the page, and refuses unknown fields', async () => {
    const call = (rules: unknown) =>
      callFunction(emu, 'export-subscribers', { bearer: admin.token, body: { rules } });
    const answer = await call({
      match: 'all',
      rules: [
        { field: 'search', op: 'contains', value: tag },
        {
          match: 'any',
          rules: [
            { field: 'attributes.plan', op: 'eq', value: 'pro' },
            { field: 'name', op: 'eq', value: 'cy' },
          ],
        },
      ],
    });
    expect(answer.status).toBe(200);
    const lines = parseLines(await (await fetch(answer.body.url)).text());
    // The file is in id order, and ids are random: which rows, not their order.
    expect(
      lines
        .slice(1)
        .map((line) => line.split(',')[0])
        .sort(),
    ).toEqual([`${tag}-a@example.com`, `${tag}-c@example.com`]);
    const unknown = await call({ match: 'all', rules: [{ field: 'secret', op: 'eq', value: 1 }] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toMatchObject({ code: 'invalid_input', field: 'rules.0.field' });
    const shape = await call({ match: 'some', rules: [] });
    expect([shape.status, shape.body.error.field]).toEqual([422, 'rules']);
  });

  it('refuses viewers, editors and the anonymous key', async () => {
    for (const role of ['viewer', 'editor'] as const) {
      const someone = await member(emu, role);
      const answer = await exportAs(someone.token, {});
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('forbidden');
    }
    const anon = await exportAs(emu.keys.anon, {});
    expect(anon.status).toBe(401);
    const none = await callFunction(emu, 'export-subscribers', { body: { filters: {} } });
    expect(none.status).toBe(401);
  });
});

describe('export-subscribers when a page fails midway', () => {
  const signature = 'jsonb, uuid, integer';
  const twoPages = `${tag}two`;
  // The real page function, renamed, behind one that fails for every page after the first.
  beforeAll(async () => {
    await sql(
      emu,
      `insert into public.subscribers (email) select $1 || '-' || i || '@example.com'
         from generate_series(1, 5001) i`,
      [twoPages],
    );
    await sql(
      emu,
      `alter function public.export_subscribers_matching_csv(${signature}) rename to export_subscribers_csv_real`,
    );
    await sql(
      emu,
      `create function public.export_subscribers_matching_csv(p_rules jsonb, p_after uuid,
         p_limit integer)
       returns public."text/plain" language plpgsql set search_path = '' as $$
       begin
         if p_after is not null then raise exception 'the disk is on fire'; end if;
         return public.export_subscribers_csv_real(p_rules, p_after, p_limit);
       end $$`,
    );
    await sql(
      emu,
      `grant execute on function public.export_subscribers_matching_csv(${signature}) to authenticated`,
    );
  });
  afterAll(async () => {
    await sql(emu, `drop function public.export_subscribers_matching_csv(${signature})`);
    await sql(
      emu,
      `alter function public.export_subscribers_csv_real(${signature}) rename to export_subscribers_matching_csv`,
    );
  });

  const exportsStored = async () =>
    (
      await sql<{ n: number }>(
        emu,
        `select count(*)::int as n from storage.objects where bucket_id = 'exports'`,
      )
    )[0]!.n;

  it('answers an error and leaves no partial file in the bucket', async () => {
    const before = await exportsStored();
    // One page works: the failure starts only with a second page.
    const small = await exportAs(admin.token, { search: `${tag}-` });
    expect(small.status).toBe(200);
    expect(await exportsStored()).toBe(before + 1);

    const failed = await exportAs(admin.token, { search: twoPages });
    expect(failed.status).toBe(500);
    expect(failed.body.error.code).toBe('internal');
    expect(await exportsStored()).toBe(before + 1);
  });
});
