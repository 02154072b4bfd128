// The send rate across workers (SPEC §9) and pause/resume mid-send (SPEC §4), at
// POSTBOX_SEND_RATE=20 so the timing is easy to observe. How closely the rate is held is measured
// by the send benchmark; here only what load cannot change is asserted: two workers together never
// go faster than the setting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { sql } from '../functions/kit';
import {
  campaignRow,
  deliveryCounts,
  listWithSubscribers,
  mailCountsByRecipient,
  member,
  newCampaign,
  processQueue,
  sendCampaign,
  sleep,
  startCampaignEmulator,
  until,
  type Member,
} from './kit';

const RATE = 20;

let emu: RunningEmulator;
let admin: Member;

beforeAll(async () => {
  emu = await startCampaignEmulator({ POSTBOX_SEND_RATE: String(RATE) });
  admin = await member(emu, 'admin');
});
afterAll(async () => {
  await emu?.stop();
});

async function sentCount(id: string): Promise<number> {
  return (await deliveryCounts(emu, id)).sent ?? 0;
}

describe('send rate', () => {
  it(`two workers together never send faster than ${RATE} messages per second`, async () => {
    const slug = await listWithSubscribers(emu, `rate${Date.now()}`, 300);
    const id = await newCampaign(emu, [slug]);
    await sql(emu, `select public.start_campaign_send($1, '<p>Rate</p>')`, [id]);
    const runs = await Promise.all([
      processQueue(emu, { budget_ms: 12_000 }),
      processQueue(emu, { budget_ms: 12_000 }),
    ]);
    for (const run of runs) {
      expect(run.status, run.text).toBe(200);
      expect(run.body.sent).toBeGreaterThan(10);
    }
    // The slope of send time over message number, after the first second (Deno and the SMTP pool
    // warm up first): edges and single slow messages barely move it.
    const [fit] = await sql<{ n: number; rate: number; seconds: number }>(
      emu,
      `with s as (select sent_at, row_number() over (order by sent_at) as i
                    from public.deliveries where campaign_id = $1 and status = 'sent'),
            t as (select min(sent_at) as t0, max(sent_at) as t1 from s)
       select count(*)::int as n, (1 / regr_slope(extract(epoch from s.sent_at), s.i))::float8 as rate,
              extract(epoch from max(t.t1) - max(t.t0))::float8 as seconds
         from s, t where s.sent_at >= t.t0 + interval '1 second'`,
      [id],
    );
    expect(fit!.seconds).toBeGreaterThan(9);
    const measured = fit!.rate;
    console.log(`rate: ${measured}/s over ${fit!.n} messages`);
    // A busy machine can only make the workers slower; faster than the setting is a bug.
    expect(measured).toBeLessThan(RATE * 1.05);
    // Unsent rows went back to the queue when the runs' time was up.
    expect((await deliveryCounts(emu, id)).sending).toBeUndefined();
  }, 60_000);
});

describe('pause and resume', () => {
  it('stops within one batch of a pause and finishes the rest after resume', async () => {
    const tag = `pause${Date.now()}`;
    const slug = await listWithSubscribers(emu, tag, 200);
    const id = await newCampaign(emu, [slug]);
    await sql(emu, `select public.start_campaign_send($1, '<p>Pause</p>')`, [id]);
    const worker = processQueue(emu, { budget_ms: 20_000 });
    await until(async () => (await sentCount(id)) >= 30, 20_000, '30 messages');
    const started = Date.now();
    const paused = await sendCampaign(emu, admin, { campaign_id: id, action: 'pause' });
    expect(paused.body.campaign.status).toBe('paused');
    const atPause = await sentCount(id);
    const run = await worker;
    expect(run.status).toBe(200);
    // The worker stopped on the pause, not at the end of its 20 s budget.
    expect(Date.now() - started).toBeLessThan(15_000);
    const afterRun = await sentCount(id);
    expect(afterRun - atPause).toBeLessThanOrEqual(100);
    expect(await deliveryCounts(emu, id)).toEqual({ sent: afterRun, queued: 200 - afterRun });
    await sleep(1500);
    expect(await sentCount(id)).toBe(afterRun);
    expect((await processQueue(emu, { budget_ms: 1000 })).body.claimed).toBe(0);

    // Resume starts process-queue by itself.
    const resumed = await sendCampaign(emu, admin, { campaign_id: id, action: 'resume' });
    expect(resumed.body.campaign.status).toBe('sending');
    await until(async () => (await campaignRow(emu, id)).status === 'sent', 40_000, 'the rest');
    expect(await deliveryCounts(emu, id)).toEqual({ sent: 200 });
    const perRecipient = await mailCountsByRecipient(emu, `${tag}-`);
    expect(perRecipient.size).toBe(200);
    expect([...perRecipient.values()].every((n) => n === 1)).toBe(true);
  }, 90_000);
});
