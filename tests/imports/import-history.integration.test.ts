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
          actor: null,
          changes: {
            name: { from: 'Old Name', to: 'New Name' },
            attributes: { from: { plan: 'free' }, to: { plan: 'pro' } },
          },
        },
      },
    ]);
  });
});
