// The import's `tags` column (20261128100700) through the real function and database: names split
// on commas and semicolons, created once ignoring case, added to new and existing subscribers, and
// not stored as an attribute.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { sql } from '../functions/kit';
import { address, importCsv, member, startImportEmulator, type Member } from '../imports/kit';

let emu: RunningEmulator;
let admin: Member;

beforeAll(async () => {
  emu = await startImportEmulator();
  admin = await member(emu, 'admin');
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

async function tagsOf(email: string): Promise<string[]> {
  const rows = await sql<{ name: string }>(
    emu,
    `select t.name from public.subscriber_tags x join public.tags t on t.id = x.tag_id
       join public.subscribers s on s.id = x.subscriber_id where s.email = $1 order by lower(t.name)`,
    [email],
  );
  return rows.map((r) => r.name);
}

it('tags each row with the names in its Tags column, creating new tags once', async () => {
  const [a, b, c] = [address('tag-a'), address('tag-b'), address('tag-c')];
  await sql(emu, `insert into public.tags (name) values ('VIP')`);
  await sql(
    emu,
    `insert into public.subscribers (email, attributes) values ($1, '{"plan": "pro"}')`,
    [c],
  );
  const csv =
    'email,name,Tags,plan\r\n' +
    `${a},Ada,"vip, Early;beta",pro\r\n` +
    `${b},Bob,,free\r\n` +
    `${c},Cy,early,\r\n`;
  const result = await importCsv(emu, admin.token, csv, { lists: ['product-updates'] });
  expect(result).toMatchObject({ status: 'done', inserted: 2, updated: 1, error_count: 0 });
  expect(await tagsOf(a)).toEqual(['beta', 'Early', 'VIP']);
  expect(await tagsOf(b)).toEqual([]);
  expect(await tagsOf(c)).toEqual(['Early']);
  const [row] = await sql<{ attributes: Record<string, string> }>(
    emu,
    `select attributes from public.subscribers where email = $1`,
    [a],
  );
  expect(row?.attributes).toEqual({ plan: 'pro' });
  const tags = await sql<{ name: string }>(
    emu,
    `select name from public.tags where lower(name) in ('vip', 'early', 'beta') order by lower(name)`,
  );
  expect(tags.map((t) => t.name)).toEqual(['beta', 'Early', 'VIP']);
});
