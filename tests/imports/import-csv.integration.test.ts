// CSV import through the real function and database: the CSV shapes people export from other tools
// (quotes, embedded newlines and commas, BOM, `;` and tab, UTF-8), bad rows with their lines,
// existing and blocklisted addresses, and the events an import leaves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { sql } from '../functions/kit';
import { address, importCsv, member, startImportEmulator, type Member } from './kit';

let emu: RunningEmulator;
let admin: Member;

beforeAll(async () => {
  emu = await startImportEmulator();
  admin = await member(emu, 'admin');
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

async function subscriber(email: string) {
  const [row] = await sql<{
    id: string;
    name: string;
    attributes: Record<string, string>;
    status: string;
  }>(emu, `select id, name, attributes, status from public.subscribers where email = $1`, [email]);
  return row;
}

async function subscriptions(email: string) {
  return sql<{ slug: string; status: string }>(
    emu,
    `select l.slug, x.status from public.subscriptions x join public.lists l on l.id = x.list_id
       join public.subscribers s on s.id = x.subscriber_id where s.email = $1 order by l.slug`,
    [email],
  );
}

describe('CSV shapes', () => {
  it('reads quoted fields with commas, quotes and newlines, a BOM, UTF-8 names and extra columns', async () => {
    const [a, b, c] = [address('quoted'), address('bom'), address('utf8')];
    const csv =
      '\uFEFFEmail,Name,Company,Note\r\n' +
      `${a},"Lovelace, Ada","Analytical ""Engines"" Ltd","line one\nline two"\r\n` +
      `"  ${b.toUpperCase()} ",Grace,,\r\n` +
      `${c},Zoë Ñúñez 山田,Café,\r\n`;
    const result = await importCsv(emu, admin.token, csv, { lists: ['product-updates'] });
    expect(result).toMatchObject({
      status: 'done',
      total_rows: 3,
      processed_rows: 3,
      inserted: 3,
      updated: 0,
      skipped: 0,
      error_count: 0,
    });
    expect(await subscriber(a)).toMatchObject({
      name: 'Lovelace, Ada',
      attributes: { Company: 'Analytical "Engines" Ltd', Note: 'line one\nline two' },
    });
    expect(await subscriber(b)).toMatchObject({ name: 'Grace', attributes: {} });
    expect(await subscriber(c)).toMatchObject({
      name: 'Zoë Ñúñez 山田',
      attributes: { Company: 'Café' },
    });
    expect(await subscriptions(a)).toEqual([{ slug: 'product-updates', status: 'confirmed' }]);
  });

  it('detects `;` and tab delimiters from the header row', async () => {
    const [a, b] = [address('semi'), address('tab')];
    const semi = await importCsv(emu, admin.token, `email;name;city\n${a};"Müller; Jo";Köln\n`);
    expect(semi).toMatchObject({ status: 'done', inserted: 1 });
    expect(await subscriber(a)).toMatchObject({ name: 'Müller; Jo', attributes: { city: 'Köln' } });
    const tab = await importCsv(
      emu,
      admin.token,
      `name\tEMAIL\tplan, tier\nTab Person\t${b}\tpro, gold\n`,
    );
    expect(tab).toMatchObject({ status: 'done', inserted: 1 });
    expect(await subscriber(b)).toMatchObject({
      name: 'Tab Person',
      attributes: { 'plan, tier': 'pro, gold' },
    });
  });

  it('fails with a clear reason when the header has no email column, writing nothing', async () => {
    const before = await sql(emu, `select count(*)::int as n from public.subscribers`);
    const result = await importCsv(emu, admin.token, `mail,name\n${address('nohead')},X\n`);
    expect(result.status).toBe('failed');
    expect(result.failure_reason).toBe('The header row has no "email" column.');
    expect(result.processed_rows).toBe(0);
    expect(await sql(emu, `select count(*)::int as n from public.subscribers`)).toEqual(before);
  });

  it('fails on an empty file', async () => {
    const result = await importCsv(emu, admin.token, '');
    expect(result).toMatchObject({ status: 'failed', failure_reason: 'The file is empty.' });
  });
});

describe('bad rows', () => {
  it('skips 10 % bad rows and reports the first 100 with their line numbers', async () => {
    const tag = address('bulk').split('@')[0];
    const lines = ['email,name'];
    const expected: { line: number; reason: string }[] = [];
    for (let i = 0; i < 1200; i++) {
      const line = i + 2;
      if (i % 10 === 3) {
        const kind = ((i / 10) % 4) | 0;
        if (kind === 0) {
          lines.push(`not-an-address-${i},Bad`);
          expected.push({ line, reason: 'invalid email address' });
        } else if (kind === 1) {
          lines.push(`${tag}-${i - 1}@example.com,Dup`);
          expected.push({ line, reason: 'duplicate address in the file' });
        } else if (kind === 2) {
          lines.push(`${tag}-${i}@example.com,${'n'.repeat(101)}`);
          expected.push({ line, reason: 'name over 100 characters' });
        } else {
          lines.push(`${tag}-${i}@example.com,Extra,column`);
          expected.push({ line, reason: 'expected 2 columns, found 3' });
        }
      } else {
        lines.push(`${tag}-${i}@example.com,Person ${i}`);
      }
    }
    const result = await importCsv(emu, admin.token, lines.join('\n'), {
      lists: ['newsletter'],
      optin: 'pending',
    });
    expect(result).toMatchObject({
      status: 'done',
      total_rows: 1200,
      processed_rows: 1200,
      inserted: 1080,
      skipped: 120,
      error_count: 120,
    });
    expect(result.errors).toEqual(expected.slice(0, 100));
    const [pending] = await sql<{ n: number }>(
      emu,
      `select count(*)::int as n from public.subscriptions x join public.subscribers s on s.id = x.subscriber_id
        where s.email like $1 and x.status = 'pending'`,
      [`${tag}-%`],
    );
    expect(pending!.n).toBe(1080);
  });

  it('reports bad rows that span lines at the line they start on', async () => {
    const ok = address('span');
    const csv = `email,name\n${ok},"Two\nlines"\n"bad address",X\n`;
    const result = await importCsv(emu, admin.token, csv);
    expect(result.errors).toEqual([
      { line: 2, reason: 'name contains control characters' },
      { line: 4, reason: 'invalid email address' },
    ]);
  });

  it('skips and reports a row with text after a closing quote, importing the rest', async () => {
    const [a, b, c] = [address('q1'), address('q2'), address('q3')];
    const after = await importCsv(
      emu,
      admin.token,
      `email,name\n${b},Bo\n${a},"Ann"x\n${c},"Cy, ""the third"" one"\n`,
    );
    expect(after).toMatchObject({ status: 'done', inserted: 2, skipped: 1 });
    expect(after.errors).toEqual([{ line: 3, reason: 'text after the closing quote of a field' }]);
    expect(await subscriber(a)).toBeUndefined();
    expect(await subscriber(c)).toMatchObject({ name: 'Cy, "the third" one' });
  });

  it('fails a file with a quote never closed before writing any row, naming the line', async () => {
    const [a, b] = [address('q4'), address('q5')];
    const open = await importCsv(emu, admin.token, `email,name\n${b},Bo\n${a},"never closed\n`);
    expect(open).toMatchObject({ status: 'failed', processed_rows: 0 });
    expect(open.failure_reason).toBe(
      'The file is not valid CSV: the quoted field opened on line 3 is never closed.',
    );
    expect(await subscriber(b)).toBeUndefined();
  });

  it('keeps a quote inside an unquoted field as text', async () => {
    const email = address('inch');
    const result = await importCsv(emu, admin.token, `email,name,size\n${email},Jo,12" screen\n`);
    expect(result).toMatchObject({ status: 'done', inserted: 1 });
    expect(await subscriber(email)).toMatchObject({ attributes: { size: '12" screen' } });
  });

  it('rejects attributes over 4 KB', async () => {
    const big = address('big');
    const result = await importCsv(emu, admin.token, `email,bio\n${big},${'x'.repeat(4090)}\n`);
    expect(result.errors).toEqual([{ line: 2, reason: 'attributes over 4 KB' }]);
    expect(await subscriber(big)).toBeUndefined();
  });
});

describe('existing addresses', () => {
  it('updates names and merges attributes, confirms pending, leaves unsubscribed alone', async () => {
    const [known, gone] = [address('known'), address('gone')];
    await sql(
      emu,
      `insert into public.subscribers (email, name, attributes) values ($1, 'Old', '{"plan":"free","keep":"1"}'), ($2, 'Gone', '{}')`,
      [known, gone],
    );
    await sql(
      emu,
      `insert into public.subscriptions (subscriber_id, list_id, status)
       select s.id, l.id, case when s.email = $1 then 'pending' else 'unsubscribed' end
         from public.subscribers s, public.lists l where s.email in ($1, $2) and l.slug = 'newsletter'`,
      [known, gone],
    );
    const result = await importCsv(
      emu,
      admin.token,
      `email,name,plan\n${known},New,pro\n${gone},,\n`,
      {
        lists: ['newsletter'],
      },
    );
    expect(result).toMatchObject({ status: 'done', inserted: 0, updated: 2, skipped: 0 });
    expect(await subscriber(known)).toMatchObject({
      name: 'New',
      attributes: { plan: 'pro', keep: '1' },
    });
    expect(await subscriber(gone)).toMatchObject({ name: 'Gone' });
    expect(await subscriptions(known)).toEqual([{ slug: 'newsletter', status: 'confirmed' }]);
    expect(await subscriptions(gone)).toEqual([{ slug: 'newsletter', status: 'unsubscribed' }]);
  });

  it('never re-enables or subscribes a blocklisted address', async () => {
    const result = await importCsv(emu, admin.token, 'email,name\nSPAM@example.com,Spammer\n', {
      lists: ['product-updates'],
    });
    expect(result).toMatchObject({ status: 'done', inserted: 0, updated: 0, skipped: 1 });
    expect(result.errors).toEqual([{ line: 2, reason: 'address is blocklisted' }]);
    expect(await subscriber('spam@example.com')).toMatchObject({ status: 'blocklisted', name: '' });
    expect(await subscriptions('spam@example.com')).toEqual([
      { slug: 'newsletter', status: 'unsubscribed' },
    ]);
  });

  it("skips an address whose stored attributes and the file's would pass 4 KB together", async () => {
    const [full, roomy] = [address('full'), address('roomy')];
    await sql(
      emu,
      `insert into public.subscribers (email, name, attributes)
       values ($1, 'Full', jsonb_build_object('bio', repeat('x', 4000))), ($2, 'Roomy', '{}')`,
      [full, roomy],
    );
    const note = 'y'.repeat(200);
    const result = await importCsv(
      emu,
      admin.token,
      `email,note\n${full},${note}\n${roomy},${note}\n`,
    );
    expect(result).toMatchObject({ status: 'done', inserted: 0, updated: 1, skipped: 1 });
    expect(result.errors).toEqual([
      { line: 2, reason: 'attributes over 4 KB together with the existing ones' },
    ]);
    expect((await subscriber(full))?.attributes).toEqual({ bio: 'x'.repeat(4000) });
    expect((await subscriber(roomy))?.attributes).toEqual({ note });
  });

  it('writes one imported event per row, from the import', async () => {
    const email = address('events');
    const result = await importCsv(emu, admin.token, `email\n${email}\n`, {
      lists: ['product-updates'],
    });
    const events = await sql<{ type: string; data: Record<string, unknown> }>(
      emu,
      `select e.type, e.data from public.events e join public.subscribers s on s.id = e.subscriber_id
        where s.email = $1 order by e.id`,
      [email],
    );
    expect(events.map((e) => e.type).sort()).toEqual(['confirmed', 'imported', 'subscribed']);
    expect(events.find((e) => e.type === 'imported')!.data).toMatchObject({
      import_id: result.id,
      line: 2,
      created: true,
    });
    expect(events.find((e) => e.type === 'subscribed')!.data).toMatchObject({ source: 'import' });
  });
});
