// An import that changes an existing subscriber leaves that change in their history (issue 23):
// one 'updated' event with the old and new name and attributes, from the import.
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

describe('an import updating a subscriber', () => {
  it('records old → new of the name and attributes, and nothing for an unchanged row', async () => {
    const [changed, same] = [address('hist1'), address('hist2')];
    await sql(
      emu,
      `insert into public.subscribers (email, name, attributes) values
         ($1, 'Old Name', '{"plan":"free"}'), ($2, 'Same', '{"plan":"pro"}')`,
      [changed, same],
    );
    const result = await importCsv(
      emu,
      admin.token,
      `email,name,plan\n${changed},New Name,pro\n${same},Same,pro\n`,
    );
    expect(result).toMatchObject({ status: 'done', updated: 2 });
    const events = await sql<{ email: string; data: Record<string, unknown> }>(
      emu,
      `select s.email, e.data from public.events e join public.subscribers s on s.id = e.subscriber_id
        where e.type = 'updated' and s.email = any($1::text[])`,
      [[changed, same]],
    );
    expect(events).toEqual([
      {
        email: changed,
        data: {
          source: 'import',
          actor: { id: admin.id, email: admin.email },
          changes: {
            name: { from: 'Old Name', to: 'New Name' },
            attributes: { from: { plan: 'free' }, to: { plan: 'pro' } },
          },
        },
      },
    ]);
  });

  it('overwrites or keeps existing names and attributes as the import asks', async () => {
    const [over, kept] = [address('over'), address('kept')];
    await sql(
      emu,
      `insert into public.subscribers (email, name, attributes) values
         ($1, 'Old', '{"plan":"free","city":"Oslo"}'), ($2, 'Old', '{"plan":"free","city":"Oslo"}')`,
      [over, kept],
    );
    const overwrite = await importCsv(emu, admin.token, `email,name,plan\n${over},New,pro\n`, {
      existing: 'overwrite',
    });
    expect(overwrite).toMatchObject({ status: 'done', updated: 1 });
    const keep = await importCsv(emu, admin.token, `email,name,plan\n${kept},New,pro\n`, {
      existing: 'keep',
      lists: ['newsletter'],
    });
    expect(keep).toMatchObject({ status: 'done', updated: 1 });
    const rows = await sql<{ email: string; name: string; attributes: unknown; lists: number }>(
      emu,
      `select s.email, s.name, s.attributes,
              (select count(*)::int from public.subscriptions x where x.subscriber_id = s.id) as lists
         from public.subscribers s where s.email = any($1::text[]) order by s.email`,
      [[over, kept]],
    );
    expect(rows).toEqual([
      { email: kept, name: 'Old', attributes: { plan: 'free', city: 'Oslo' }, lists: 1 },
      { email: over, name: 'New', attributes: { plan: 'pro' }, lists: 0 },
    ]);
    // Who started the import is the actor of the change.
    const [event] = await sql<{ data: { actor: { email: string } } }>(
      emu,
      `select e.data from public.events e join public.subscribers s on s.id = e.subscriber_id
        where e.type = 'updated' and s.email = $1`,
      [over],
    );
    expect(event!.data.actor.email).toBe(admin.email);
  });
});
