// Exactly once (SPEC §0, §9): four process-queue workers at once, one of them dying in the middle of
// a batch; its stale claim comes back and every recipient ends with one sent delivery and one
// message in MailDev. 5,000 recipients on PostgreSQL; 1,000 on PGlite, whose single connection
// serialises every worker and would make 5,000 take minutes.
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
} from './kit';
import { startCampaignEmulator } from './kit';

const RECIPIENTS = process.env.DATABASE_URL ? 5000 : 1000;
const CLAIM_TIMEOUT_SECONDS = 5;

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startCampaignEmulator({
    POSTBOX_SEND_RATE: 'unlimited',
    POSTBOX_CLAIM_TIMEOUT_SECONDS: String(CLAIM_TIMEOUT_SECONDS),
    POSTBOX_QUEUE_BUDGET_MS: '20000',
  });
});
afterAll(async () => {
  await emu?.stop();
});

describe('four workers, one dying mid-batch', () => {
  it(`sends each of ${RECIPIENTS} recipients exactly one message`, async () => {
    const tag = `once${Date.now()}`;
    const slug = await listWithSubscribers(emu, tag, RECIPIENTS);
    const id = await newCampaign(emu, [slug], { subject: 'Once' });
    await sql(emu, `select public.start_campaign_send($1, '<p>Once</p>')`, [id]);

    // Round one: three workers plus one that stops dead after 30 messages of its first batch of
    // 100, leaving 70 rows claimed as a crashed process would.
    const first = await Promise.all([
      processQueue(emu),
      processQueue(emu),
      processQueue(emu),
      processQueue(emu, { abandon_after: 30 }),
    ]);
    for (const run of first) expect(run.status, run.text).toBe(200);
    expect(first[3]!.body.claimed).toBe(100);
    expect(first[3]!.body.sent).toBeGreaterThanOrEqual(30);
    expect(first[3]!.body.sent).toBeLessThan(100);

    // Further rounds until done; the dead worker's rows return once their claim is stale.
    const deadline = Date.now() + 240_000;
    while ((await campaignRow(emu, id)).status !== 'sent') {
      expect(Date.now()).toBeLessThan(deadline);
      const runs = await Promise.all(Array.from({ length: 4 }, () => processQueue(emu)));
      for (const run of runs) expect(run.status, run.text).toBe(200);
      if (runs.every((r) => r.body.claimed === 0)) await new Promise((r) => setTimeout(r, 1000));
    }
    // The rows the dead worker held were claimed a second time, after their claim went stale.
    const [reclaimed] = await sql<{ n: number }>(
      emu,
      `select count(*)::int as n from public.deliveries where campaign_id = $1 and attempts = 2`,
      [id],
    );
    expect(reclaimed!.n).toBe(100 - first[3]!.body.sent);

    expect(await deliveryCounts(emu, id)).toEqual({ sent: RECIPIENTS });
    const [messageIds] = await sql<{ n: number }>(
      emu,
      `select count(distinct message_id)::int as n from public.deliveries where campaign_id = $1`,
      [id],
    );
    expect(messageIds!.n).toBe(RECIPIENTS);
    expect(await campaignRow(emu, id)).toMatchObject({
      status: 'sent',
      recipients: RECIPIENTS,
      sent: RECIPIENTS,
      failed: 0,
    });

    const perRecipient = await mailCountsByRecipient(emu, `${tag}-`);
    expect(perRecipient.size).toBe(RECIPIENTS);
    const duplicated = [...perRecipient].filter(([, n]) => n !== 1);
    expect(duplicated).toEqual([]);
  }, 400_000);
});
