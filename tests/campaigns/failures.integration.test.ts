// Failed sends (SPEC §9): a temporary failure is retried after 1 then 5 minutes and fails on the
// third attempt, a permanent one fails at once, and the retry action queues failures again. Mail
// goes through the HTTP email API transport to a local provider that answers what each test asks.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { sql } from '../functions/kit';
import {
  campaignRow,
  drainCampaign,
  deliveryCounts,
  listWithSubscribers,
  member,
  newCampaign,
  processQueue,
  sendCampaign,
  startCampaignEmulator,
  type Member,
} from './kit';

let emu: RunningEmulator;
let provider: Server;
let admin: Member;
/** The status the provider answers for each recipient, in order (then 200). */
const script = new Map<string, number[]>();
const accepted: string[] = [];

beforeAll(async () => {
  provider = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const to = String((JSON.parse(body) as { to: string[] }).to[0]);
      const status = script.get(to)?.shift() ?? 200;
      if (status === 200) accepted.push(to);
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(status === 200 ? { id: `msg-${accepted.length}` } : { error: 'no' }));
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const { port } = provider.address() as AddressInfo;
  emu = await startCampaignEmulator({
    POSTBOX_SEND_RATE: 'unlimited',
    POSTBOX_MAIL_API_URL: `http://127.0.0.1:${port}/emails`,
    POSTBOX_MAIL_API_KEY: 'test-key',
  });
  admin = await member(emu, 'admin');
});
afterAll(async () => {
  await emu?.stop();
  await new Promise((resolve) => provider?.close(resolve));
});

/** Makes every queued delivery of the campaign due now, as if the back-off had passed. */
async function skipBackOff(id: string): Promise<void> {
  await sql(emu, `update public.deliveries set next_attempt_at = now() where campaign_id = $1`, [
    id,
  ]);
}

async function delivery(id: string, email: string) {
  const [row] = await sql<{ status: string; attempts: number; wait: number; last_error: string }>(
    emu,
    `select d.status, d.attempts, d.last_error,
            round(extract(epoch from d.next_attempt_at - now()) / 60)::int as wait
       from public.deliveries d join public.subscribers s on s.id = d.subscriber_id
      where d.campaign_id = $1 and s.email = $2`,
    [id, email],
  );
  return row!;
}

describe('failures', () => {
  it('defers temporary failures 1 then 5 minutes, fails the third, and fails permanent ones', async () => {
    const tag = `fail${Date.now()}`;
    const slug = await listWithSubscribers(emu, tag, 3);
    const [flaky, broken, fine] = [1, 2, 3].map((i) => `${tag}-${i}@example.com`);
    script.set(flaky!, [503, 503, 503, 200]);
    script.set(broken!, [422]);
    const id = await newCampaign(emu, [slug]);
    await sql(emu, `select public.start_campaign_send($1, '<p>x</p>')`, [id]);

    const first = await processQueue(emu, { budget_ms: 3000 });
    expect(first.body).toMatchObject({ claimed: 3, sent: 1, deferred: 1, failed: 1 });
    expect(await delivery(id, flaky!)).toMatchObject({ status: 'queued', attempts: 1, wait: 1 });
    expect((await delivery(id, broken!)).status).toBe('failed');
    expect((await delivery(id, fine!)).status).toBe('sent');
    // Not due yet: nothing is claimed.
    expect((await processQueue(emu, { budget_ms: 1000 })).body.claimed).toBe(0);

    await skipBackOff(id);
    expect((await processQueue(emu, { budget_ms: 3000 })).body).toMatchObject({ deferred: 1 });
    expect(await delivery(id, flaky!)).toMatchObject({ status: 'queued', attempts: 2, wait: 5 });

    await skipBackOff(id);
    const third = await processQueue(emu, { budget_ms: 3000 });
    expect(third.body).toMatchObject({ failed: 1, campaigns_finished: 1 });
    expect(await delivery(id, flaky!)).toMatchObject({ status: 'failed', attempts: 3 });
    expect(await campaignRow(emu, id)).toMatchObject({
      status: 'sent',
      sent: 1,
      failed: 2,
      deferred: 2,
    });

    // Retry: both failures back to the queue with their attempts reset; the provider now accepts.
    script.set(broken!, []);
    const retry = await sendCampaign(emu, admin, { campaign_id: id, action: 'retry' });
    expect(retry.body).toMatchObject({ retried: 2, campaign: { status: 'sending', failed: 0 } });
    await drainCampaign(emu, id);
    expect(await deliveryCounts(emu, id)).toEqual({ sent: 3 });
    expect(await campaignRow(emu, id)).toMatchObject({ sent: 3, failed: 0 });
    expect(accepted.filter((to) => to.startsWith(`${tag}-`)).sort()).toEqual(
      [flaky, broken, fine].sort(),
    );
  }, 90_000);
});
