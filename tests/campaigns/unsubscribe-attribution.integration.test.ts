// Unsubscribes counted per campaign (issue 5): the RFC 8058 one-click POST and the footer page's
// button from a campaign message write 'unsubscribed' events with that campaign's id; older links
// without a campaign keep working and name none; test sends name none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import {
  callFunction,
  linkIn,
  signTestToken,
  snapshot,
  sql,
  waitForMail,
  type CaughtMail,
} from '../functions/kit';
import {
  listWithSubscribers,
  member,
  sourceHeaders,
  startCampaignEmulator,
  type Member,
} from './kit';
import { eventsOf, sentCampaign, subscriptionsOf } from './feedback-kit';

let emu: RunningEmulator;
let admin: Member;
let tag: string;
let slug: string;
let campaignId: string;
const address = (i: number) => `${tag}-${i}@example.com`;

beforeAll(async () => {
  emu = await startCampaignEmulator({ POSTBOX_SEND_RATE: 'unlimited' });
  admin = await member(emu, 'admin');
  tag = `attrib${Date.now()}`;
  slug = await listWithSubscribers(emu, tag, 4);
  campaignId = await sentCampaign(emu, admin, slug);
});
afterAll(async () => {
  await emu?.stop();
});

async function mailTo(i: number): Promise<CaughtMail> {
  const [mail] = await waitForMail(emu, address(i));
  return mail!;
}

async function subscriberId(email: string): Promise<string> {
  const [row] = await sql<{ id: string }>(
    emu,
    `select id from public.subscribers where email = $1`,
    [email],
  );
  return row!.id;
}

function oneClick(url: string) {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
}

describe('unsubscribes from a campaign message', () => {
  it('one-click POST to List-Unsubscribe records the campaign on the event', async () => {
    const headers = await sourceHeaders(emu, (await mailTo(1)).id);
    const url = /<(https?:[^>]+)>/.exec(headers['list-unsubscribe'] ?? '')![1]!;
    const res = await oneClick(url);
    expect(res.status).toBe(200);
    expect(await subscriptionsOf(emu, address(1))).toEqual({ [slug]: 'unsubscribed' });
    const events = await eventsOf(emu, address(1), ['unsubscribed']);
    expect(events.map((e) => [e.campaign_id, e.data.source, e.data.list])).toEqual([
      [campaignId, 'one-click', slug],
    ]);
    // Repeating it changes nothing and counts nothing twice.
    expect((await oneClick(url)).status).toBe(200);
    expect(await eventsOf(emu, address(1), ['unsubscribed'])).toHaveLength(1);
  });

  it("the footer link's page button records the campaign too; its undo does not", async () => {
    const token = linkIn(await mailTo(2), '/unsubscribe/').searchParams.get('token')!;
    const res = await callFunction(emu, 'unsubscribe', {
      body: { token, action: 'unsubscribe' },
    });
    expect(res.status, res.text).toBe(200);
    const undo = await callFunction(emu, 'unsubscribe', {
      body: { token, action: 'resubscribe' },
    });
    expect(undo.status, undo.text).toBe(200);
    const events = await eventsOf(emu, address(2), ['unsubscribed', 'resubscribed']);
    expect(events.map((e) => [e.type, e.campaign_id, e.data.source])).toEqual([
      ['unsubscribed', campaignId, 'unsubscribe-page'],
      ['resubscribed', null, 'undo'],
    ]);
  });

  it('the GET behind the footer link changes and records nothing', async () => {
    const token = linkIn(await mailTo(3), '/unsubscribe/').searchParams.get('token')!;
    const before = await snapshot(emu);
    const res = await callFunction(emu, 'unsubscribe', { query: { token } });
    expect(res.status).toBe(200);
    expect(await snapshot(emu)).toBe(before);
  });
});

describe('tokens', () => {
  it('an older link without a campaign still unsubscribes and names no campaign', async () => {
    const id = await subscriberId(address(3));
    const token = signTestToken({ p: 'unsubscribe', s: id });
    const res = await callFunction(emu, 'unsubscribe', {
      body: { token, action: 'unsubscribe' },
    });
    expect(res.status, res.text).toBe(200);
    const events = await eventsOf(emu, address(3), ['unsubscribed']);
    expect(events.map((e) => e.campaign_id)).toEqual([null]);
  });

  it('a campaign deleted since the send is not named; a malformed campaign id is refused', async () => {
    const id = await subscriberId(address(4));
    const gone = signTestToken({
      p: 'unsubscribe',
      s: id,
      c: '00000000-0000-4000-8000-000000000000',
    });
    const before = await snapshot(emu);
    for (const c of ['not-a-uuid', 42]) {
      const res = await callFunction(emu, 'unsubscribe', {
        body: { token: signTestToken({ p: 'unsubscribe', s: id, c }), action: 'unsubscribe' },
      });
      expect([res.status, res.body?.error?.code]).toEqual([400, 'token_invalid']);
    }
    expect(await snapshot(emu)).toBe(before);
    const res = await callFunction(emu, 'unsubscribe', {
      body: { token: gone, action: 'unsubscribe' },
    });
    expect(res.status, res.text).toBe(200);
    expect((await eventsOf(emu, address(4), ['unsubscribed'])).map((e) => e.campaign_id)).toEqual([
      null,
    ]);
  });

  it("a test message's links name no campaign", async () => {
    const res = await callFunction(emu, 'send-campaign', {
      bearer: admin.token,
      body: { campaign_id: campaignId, action: 'test' },
    });
    // A sent campaign may still be tested; what matters is the token in the message.
    expect(res.status, res.text).toBe(200);
    const [mail] = await waitForMail(emu, admin.email);
    const token = linkIn(mail!, '/unsubscribe/').searchParams.get('token')!;
    const payload = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString());
    expect(payload.c).toBeUndefined();
  });
});
