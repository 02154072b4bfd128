// POSTBOX_IMPORT_PARALLEL changes only how many batches one run applies at once, never the result:
// the same file imported one batch at a time and five at a time gives the same counts, the same
// first-occurrence winner for an address repeated in a later batch, the same bad-row list in line
// order, and one subscriber, subscription and `imported` event per good address.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { sql } from '../functions/kit';
import { importCsv, member, startImportEmulator } from './kit';

let emu: RunningEmulator | null = null;

afterEach(async () => {
  await emu?.stop();
  emu = null;
  // startImportEmulator passes settings through process.env: leave none behind for other files.
  delete process.env.POSTBOX_IMPORT_BATCH_ROWS;
  delete process.env.POSTBOX_IMPORT_PARALLEL;
});

/**
 * 1,400 rows in batches of 200: every 97th row a bad address (15), and the row on line 1,252
 * (batch 7) repeats the address of line 32 (batch 1) under another name: skipped as a duplicate.
 */
function csvFor(tag: string): { csv: string; badLines: number[] } {
  const lines = ['email,name'];
  const badLines: number[] = [];
  for (let i = 0; i < 1_400; i++) {
    if (i % 97 === 5) {
      lines.push(`not-an-address-${i},Bad`);
      badLines.push(i + 2);
    } else if (i === 1_250) {
      lines.push(`${tag}-30@example.com,Later Name`);
      badLines.push(i + 2);
    } else lines.push(`${tag}-${i}@example.com,Person ${i}`);
  }
  return { csv: lines.join('\n') + '\n', badLines };
}

async function importWith(parallel: number) {
  emu = await startImportEmulator({
    POSTBOX_IMPORT_BATCH_ROWS: '200',
    POSTBOX_IMPORT_PARALLEL: String(parallel),
  });
  const admin = await member(emu, 'admin');
  const tag = `par${parallel}x${Date.now()}`;
  const { csv, badLines } = csvFor(tag);
  const done = await importCsv(emu, admin.token, csv, { lists: ['product-updates'] });
  const [stored] = await sql<{ subscribers: number; subs: number; imported: number; name: string }>(
    emu,
    `select (select count(*)::int from public.subscribers where email like $1) as subscribers,
            (select count(*)::int from public.subscriptions x join public.subscribers s
               on s.id = x.subscriber_id where s.email like $1) as subs,
            (select count(*)::int from public.events e join public.subscribers s
               on s.id = e.subscriber_id where s.email like $1 and e.type = 'imported') as imported,
            (select name from public.subscribers where email = $2) as name`,
    [`${tag}-%`, `${tag}-30@example.com`],
  );
  return { done, badLines, stored: stored! };
}

describe('POSTBOX_IMPORT_PARALLEL', () => {
  for (const parallel of [1, 5]) {
    it(`imports a file to the same result applying ${parallel} batch${parallel > 1 ? 'es' : ''} at once`, async () => {
      const { done, badLines, stored } = await importWith(parallel);
      const bad = badLines.length; // 15 bad addresses and the repeat
      expect(bad).toBe(16);
      expect(done).toMatchObject({
        status: 'done',
        total_rows: 1_400,
        processed_rows: 1_400,
        inserted: 1_400 - bad,
        updated: 0,
        skipped: bad,
        error_count: bad,
      });
      expect(done.errors.map((e) => e.line)).toEqual(badLines);
      expect(done.errors.find((e) => e.line === 1_252)?.reason).toBe(
        'duplicate address in the file',
      );
      // The first line of the address wins, even when the later batch commits first.
      expect(stored).toEqual({
        subscribers: 1_400 - bad,
        subs: 1_400 - bad,
        imported: 1_400 - bad,
        name: 'Person 30',
      });
    }, 120_000);
  }
});
