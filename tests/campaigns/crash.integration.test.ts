// A real crash (SPEC §9): the process-queue Deno process is killed (SIGKILL) while four runs are
// sending. Its claims come back after the claim timeout and every recipient ends with exactly one
// sent delivery. Only a message the mail server had accepted while its result was not yet recorded
// can arrive twice (SMTP cannot tell), so MailDev may hold at most one extra per send in flight.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { sql } from '../functions/kit';
import {
  campaignRow,
  deliveryCounts,
  listWithSubscribers,
  mailCountsByRecipient,
  newCampaign,
  processQueue,
  sleep,
  startCampaignEmulator,
  until,
} from './kit';

const RECIPIENTS = process.env.DATABASE_URL ? 2000 : 600;
/** Four runs with 32 sends in flight each (process-queue's concurrency; each waits for its result to be written). */
const IN_FLIGHT = 4 * 32;

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startCampaignEmulator({
    POSTBOX_SEND_RATE: 'unlimited',
    POSTBOX_CLAIM_TIMEOUT_SECONDS: '5',
    POSTBOX_QUEUE_BUDGET_MS: '20000',
  });
});
afterAll(async () => {
  await emu?.stop();
});

/** The pid of the Deno process serving process-queue: our child, working in its folder. */
function processQueuePid(): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      if (readlinkSync(`/proc/${entry}/cwd`).endsWith('/supabase/functions/process-queue'))
        return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  return null;
}

describe('process-queue killed mid-send', () => {
  it.runIf(process.platform === 'linux')(
    `records one sent delivery for each of ${RECIPIENTS} recipients; only messages in flight may arrive twice`,
    async () => {
      const tag = `crash${Date.now()}`;
      const slug = await listWithSubscribers(emu, tag, RECIPIENTS);
      const id = await newCampaign(emu, [slug], { subject: 'Crash' });
      await sql(emu, `select public.start_campaign_send($1, '<p>Crash</p>')`, [id]);

      const runs = Array.from({ length: 4 }, () => processQueue(emu));
      await until(async () => ((await deliveryCounts(emu, id)).sent ?? 0) >= 100, 60_000, '100');
      const pid = processQueuePid();
      expect(pid).not.toBeNull();
      process.kill(pid!, 'SIGKILL');
      const killed = await Promise.all(runs);
      expect(killed.every((r) => r.status >= 500)).toBe(true);
      const atKill = await deliveryCounts(emu, id);
      expect(atKill.sending ?? 0).toBeGreaterThan(0);

      // A fresh process starts with the next request; stale claims return after 5 s.
      const deadline = Date.now() + 240_000;
      while ((await campaignRow(emu, id)).status !== 'sent') {
        expect(Date.now()).toBeLessThan(deadline);
        const next = await Promise.all(Array.from({ length: 4 }, () => processQueue(emu)));
        for (const run of next) expect(run.status, run.text).toBe(200);
        if (next.every((r) => r.body.claimed === 0)) await sleep(1000);
      }
      expect(await deliveryCounts(emu, id)).toEqual({ sent: RECIPIENTS });
      expect(await campaignRow(emu, id)).toMatchObject({ sent: RECIPIENTS, failed: 0 });

      const perRecipient = await mailCountsByRecipient(emu, `${tag}-`);
      expect(perRecipient.size).toBe(RECIPIENTS);
      const twice = [...perRecipient.values()].filter((n) => n > 1);
      expect(twice.every((n) => n === 2)).toBe(true);
      expect(twice.length).toBeLessThanOrEqual(IN_FLIGHT);
      console.log(`killed with ${atKill.sending} claimed rows; ${twice.length} arrived twice`);
    },
    400_000,
  );
});
