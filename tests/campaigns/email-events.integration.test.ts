// email-events over HTTP (SPEC §4, §7, §8): the provider webhook's shared secret, hard and soft
// bounces, complaints, retries, unknown addresses, Postmark's shape, and bodies that change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { callFunction, snapshot, sql, type CallOptions } from '../functions/kit';
import { listWithSubscribers, member, startCampaignEmulator, type Member } from './kit';
import { deliveryTo, eventsOf, sentCampaign, subscriptionsOf } from './feedback-kit';

const SECRET = 'test-webhook-secret-0123456789';

let emu: RunningEmulator;
let admin: Member;
let tag: string;
let slug: string;
let campaignId: string;
const address = (i: number) => `${tag}-${i}@example.com`;

beforeAll(async () => {
  emu = await startCampaignEmulator({
    POSTBOX_SEND_RATE: 'unlimited',
    POSTBOX_WEBHOOK_SECRET: SECRET,
  });
  admin = await member(emu, 'admin');
  tag = `bounce${Date.now()}`;
  slug = await listWithSubscribers(emu, tag, 5);
  // Also on the main list, so "unsubscribed everywhere" means more than the campaign's list.
  await sql(
    emu,
    `insert into public.subscriptions (subscriber_id, list_id, status)
     select s.id, l.id, 'confirmed' from public.subscribers s, public.lists l
      where s.email like $1 and l.slug = 'newsletter'`,
    [`${tag}-%`],
  );
  campaignId = await sentCampaign(emu, admin, slug);
});
afterAll(async () => {
  await emu?.stop();
});

function webhook(body: unknown, options: CallOptions = {}) {
  return callFunction(emu, 'email-events', {
    ...options,
    body,
    headers: { 'X-Postbox-Webhook-Secret': SECRET, ...options.headers },
  });
}

describe('the shared secret', () => {
  it('refuses a missing or wrong secret with 401 and changes nothing', async () => {
    const event = { type: 'complaint', email: address(5) };
    const before = await snapshot(emu);
    const attempts: CallOptions[] = [
      { headers: {} },
      { headers: { 'X-Postbox-Webhook-Secret': `${SECRET}x` } },
      { headers: { 'X-Postbox-Webhook-Secret': SECRET.slice(0, -1) } },
      { bearer: 'not-the-secret' },
      { bearer: emu.keys.serviceRole },
    ];
    for (const options of attempts) {
      const res = await callFunction(emu, 'email-events', { body: event, ...options });
      expect([res.status, res.body?.error?.code], JSON.stringify(options)).toEqual([
        401,
        'unauthenticated',
      ]);
    }
    expect(await snapshot(emu)).toBe(before);
  });

  it('accepts the secret as a bearer token too', async () => {
    const res = await callFunction(emu, 'email-events', {
      body: { type: 'bounce', kind: 'soft', email: 'nobody-known@example.com' },
      bearer: SECRET,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ received: 1, recorded: 0, duplicates: 0, ignored: 1, rejected: 0 });
  });
});

describe('bounces and complaints', () => {
  it('a hard bounce blocklists, unsubscribes from every list and marks the delivery bounced', async () => {
    const delivery = await deliveryTo(emu, campaignId, address(1));
    expect(delivery.status).toBe('sent');
    const res = await webhook({
      type: 'bounce',
      kind: 'hard',
      email: address(1).toUpperCase(),
      message_id: delivery.message_id,
      reason: '550 5.1.1 No such user',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ received: 1, recorded: 1, duplicates: 0, ignored: 0, rejected: 0 });
    const [who] = await sql<{ status: string }>(
      emu,
      `select status from public.subscribers where email = $1`,
      [address(1)],
    );
    expect(who!.status).toBe('blocklisted');
    expect(await subscriptionsOf(emu, address(1))).toEqual({
      [slug]: 'unsubscribed',
      newsletter: 'unsubscribed',
    });
    expect((await deliveryTo(emu, campaignId, address(1))).status).toBe('bounced');
    expect(await eventsOf(emu, address(1), ['bounced'])).toEqual([
      {
        type: 'bounced',
        campaign_id: campaignId,
        data: { kind: 'hard', reason: '550 5.1.1 No such user', message_id: delivery.message_id },
      },
    ]);
    const unsubscribed = await eventsOf(emu, address(1), ['unsubscribed']);
    expect(unsubscribed.map((e) => e.data.source)).toEqual(['bounce', 'bounce']);
  });

  it('records a retry of the same event once (Message-ID with or without angle brackets)', async () => {
    const { message_id } = await deliveryTo(emu, campaignId, address(1));
    const before = await snapshot(emu);
    const res = await webhook([
      { type: 'bounce', kind: 'hard', email: address(1), message_id },
      { type: 'bounce', kind: 'hard', email: address(1), message_id: message_id.slice(1, -1) },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ received: 2, recorded: 0, duplicates: 2, ignored: 0, rejected: 0 });
    expect(await snapshot(emu)).toBe(before);
  });

  it('a complaint blocklists and is counted for the campaign; the delivery stays sent', async () => {
    const { message_id } = await deliveryTo(emu, campaignId, address(2));
    const res = await webhook({ type: 'complaint', email: address(2), message_id });
    expect(res.status, res.text).toBe(200);
    expect(res.body.recorded).toBe(1);
    expect(await subscriptionsOf(emu, address(2))).toEqual({
      [slug]: 'unsubscribed',
      newsletter: 'unsubscribed',
    });
    expect((await deliveryTo(emu, campaignId, address(2))).status).toBe('sent');
    expect(await eventsOf(emu, address(2), ['complained'])).toEqual([
      { type: 'complained', campaign_id: campaignId, data: { message_id } },
    ]);
    const [who] = await sql<{ status: string }>(
      emu,
      `select status from public.subscribers where email = $1`,
      [address(2)],
    );
    expect(who!.status).toBe('blocklisted');
  });

  it('a soft bounce records the event only; a hard bounce of the same message still counts', async () => {
    const { message_id } = await deliveryTo(emu, campaignId, address(3));
    const soft = await webhook({
      type: 'bounce',
      kind: 'soft',
      email: address(3),
      message_id,
      reason: 'mailbox full',
      occurred_at: '2026-11-22T10:00:00+01:00',
    });
    expect(soft.body).toEqual({ received: 1, recorded: 1, duplicates: 0, ignored: 0, rejected: 0 });
    expect(await subscriptionsOf(emu, address(3))).toEqual({
      [slug]: 'confirmed',
      newsletter: 'confirmed',
    });
    expect((await deliveryTo(emu, campaignId, address(3))).status).toBe('sent');
    const [event] = await sql<{ created_at: Date }>(
      emu,
      `select e.created_at from public.events e join public.subscribers s on s.id = e.subscriber_id
        where s.email = $1 and e.type = 'bounced'`,
      [address(3)],
    );
    expect(new Date(event!.created_at).toISOString()).toBe('2026-11-22T09:00:00.000Z');
    const hard = await webhook({ type: 'bounce', email: address(3), message_id });
    expect(hard.body.recorded).toBe(1);
    expect((await deliveryTo(emu, campaignId, address(3))).status).toBe('bounced');
    expect((await eventsOf(emu, address(3), ['bounced'])).map((e) => e.data.kind)).toEqual([
      'soft',
      'hard',
    ]);
  });

  it('answers 200 for unknown addresses and changes nothing', async () => {
    const before = await snapshot(emu);
    const res = await webhook([
      { type: 'bounce', kind: 'hard', email: `stranger-${tag}@example.com` },
      { type: 'complaint', email: `other-${tag}@example.com`, message_id: '<nobody@example.com>' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: 2, recorded: 0, duplicates: 0, ignored: 2, rejected: 0 });
    expect(await snapshot(emu)).toBe(before);
  });

  it("takes Postmark's bounce webhook as it comes and skips its other record types", async () => {
    const res = await webhook([
      {
        RecordType: 'Bounce',
        Type: 'HardBounce',
        TypeCode: 1,
        MessageID: '883953f4-6105-42a2-a16a-77a8eac79483',
        Email: address(4),
        BouncedAt: '2026-11-22T08:00:00Z',
        Description: 'The server was unable to deliver your message',
        Details: 'smtp;550 5.1.1 The email account does not exist',
      },
      { RecordType: 'Delivery', Recipient: address(5), MessageID: 'x' },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ received: 1, recorded: 1, duplicates: 0, ignored: 0, rejected: 0 });
    const [event] = await eventsOf(emu, address(4), ['bounced']);
    expect(event!.data.kind).toBe('hard');
    expect(event!.data.reason).toMatch(/^The server was unable.*: smtp;550/);
    expect(event!.campaign_id).toBeNull();
    expect(await subscriptionsOf(emu, address(4))).toEqual({
      [slug]: 'unsubscribed',
      newsletter: 'unsubscribed',
    });
  });
  it('skips an event whose time is out of range, records it as rejected and applies the rest', async () => {
    const times = ['0000-01-01T00:00:00Z', '-004714-11-24T00:00:00Z', '+275760-09-13T00:00:00Z'];
    const res = await webhook([
      ...times.map((occurred_at) => ({
        type: 'bounce',
        kind: 'soft',
        email: address(2),
        occurred_at,
      })),
      { type: 'bounce', kind: 'soft', email: address(2), occurred_at: '2026-11-22T10:00:00Z' },
      { type: 'bounce', kind: 'soft', email: address(2), occurred_at: '9999-12-31T23:59:59Z' },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ received: 5, recorded: 2, duplicates: 0, ignored: 0, rejected: 3 });
    const complaints = (await eventsOf(emu, address(2), ['complained'])).length;
    const single = await webhook({ type: 'complaint', email: address(2), occurred_at: times[0] });
    expect([single.status, single.body]).toEqual([
      200,
      { received: 1, recorded: 0, duplicates: 0, ignored: 0, rejected: 1 },
    ]);
    // The provider does not send them again (200), and nothing of them reached the database.
    expect((await eventsOf(emu, address(2), ['complained'])).length).toBe(complaints);
    const garbage = await webhook({ type: 'bounce', email: address(2), occurred_at: 'yesterday' });
    expect([garbage.status, garbage.body?.error?.field]).toEqual([422, 'occurred_at']);
  });
});

describe('bad requests', () => {
  it('refuses malformed bodies with catalogue errors and applies nothing of the batch', async () => {
    const good = { type: 'bounce', kind: 'hard', email: address(5) };
    const cases: { options: CallOptions; status: number; code: string; field?: string }[] = [
      {
        options: { rawBody: '{not json', headers: { 'Content-Type': 'application/json' } },
        status: 422,
        code: 'invalid_input',
      },
      {
        options: { rawBody: JSON.stringify(good), headers: { 'Content-Type': 'text/plain' } },
        status: 422,
        code: 'invalid_input',
      },
      { options: { body: [] }, status: 422, code: 'invalid_input', field: 'body' },
      { options: { body: 'bounce' }, status: 422, code: 'invalid_input', field: 'body' },
      { options: { body: [good, 7] }, status: 422, code: 'invalid_input', field: 'events[1]' },
      {
        options: { body: [good, { type: 'delivered', email: address(5) }] },
        status: 422,
        code: 'invalid_input',
        field: 'events[1].type',
      },
      {
        options: { body: [good, { type: 'bounce', email: 'not an address' }] },
        status: 422,
        code: 'invalid_email',
        field: 'events[1].email',
      },
      {
        options: { body: { type: 'bounce', kind: 'permanent', email: address(5) } },
        status: 422,
        code: 'invalid_input',
        field: 'kind',
      },
      {
        options: { body: { type: 'complaint', kind: 'hard', email: address(5) } },
        status: 422,
        code: 'invalid_input',
        field: 'kind',
      },
      {
        options: { body: { ...good, message_id: 'has space@x' } },
        status: 422,
        code: 'invalid_input',
        field: 'message_id',
      },
      {
        options: { body: { ...good, reason: 42 } },
        status: 422,
        code: 'invalid_input',
        field: 'reason',
      },
      {
        options: { body: { ...good, occurred_at: 'yesterday' } },
        status: 422,
        code: 'invalid_input',
        field: 'occurred_at',
      },
      {
        options: { body: Array.from({ length: 1001 }, () => good) },
        status: 422,
        code: 'invalid_input',
        field: 'body',
      },
      {
        options: { body: { ...good, reason: 'x'.repeat(600 * 1024) } },
        status: 413,
        code: 'payload_too_large',
      },
      { options: { method: 'GET', body: undefined }, status: 405, code: 'method_not_allowed' },
    ];
    const before = await snapshot(emu);
    for (const { options, status, code, field } of cases) {
      const res = await webhook(options.body, options);
      const label = JSON.stringify(options).slice(0, 120);
      expect([res.status, res.body?.error?.code], label).toEqual([status, code]);
      if (field) expect(res.body.error.field, label).toBe(field);
    }
    expect(await snapshot(emu)).toBe(before);
  });
});
