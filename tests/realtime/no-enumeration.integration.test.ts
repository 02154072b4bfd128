// SPEC §7 "no enumeration" over Realtime (issue 20, finding 1): an anonymous socket with only the
// publishable key, joined to everything it can name, hears nothing when a new, known, blocklisted
// or known-but-new-to-the-list address calls `subscribe`; the public topics (waitlist standings,
// the home page's count) move only when a subscription is confirmed, and say no more than the
// pages do.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { callFunction, sql, startFunctionsEmulator } from '../functions/kit';
import { APP_TOPICS, type Heard, Observer } from './observer';

let emu: RunningEmulator;
let observer: Observer;
let tables: string[];

beforeAll(async () => {
  emu = await startFunctionsEmulator({ trustedProxyHops: 1 });
  await sql(emu, 'update public.settings set show_subscriber_count = true');
  observer = new Observer(emu);
  tables = await observer.watchEveryTable();
  await observer.watchTopics(APP_TOPICS);
}, 120_000);
afterAll(async () => {
  await observer?.close();
  await emu?.stop();
});

const unique = () => `rt-${Date.now()}-${randomBytes(4).toString('hex')}@example.com`;
const ip = () => `10.${[1, 2, 3].map(() => randomBytes(1)[0]).join('.')}`;

async function subscribe(body: Record<string, unknown>) {
  const res = await callFunction(emu, 'subscribe', {
    body,
    headers: { 'X-Forwarded-For': ip() },
  });
  expect(res.status, res.text).toBe(200);
}

/** Everything the observer heard within `ms` (delivery is asynchronous; wait for it to settle). */
async function heardWithin(ms = 1500): Promise<Heard[]> {
  await new Promise((r) => setTimeout(r, ms));
  return observer.take();
}

describe('an anonymous socket', () => {
  it('joins every table and public topic, and is refused every private topic', () => {
    expect(tables).toEqual(expect.arrayContaining(['subscribers', 'subscriptions', 'campaigns']));
    for (const [label, outcome] of observer.joins) {
      if (label.startsWith('private:')) expect(outcome, label).toMatch(/^CHANNEL_ERROR/);
      else expect(outcome, label).toBe('SUBSCRIBED');
    }
  });

  it('cannot filter postgres_changes on a column its role may not read', async () => {
    const outcome = await observer.join('pg:filter', (c) =>
      c.on(
        'postgres_changes',
        { event: '*', schema: 'public', table: 'subscribers', filter: 'email=eq.ada@example.com' },
        () => undefined,
      ),
    );
    expect(outcome).toBe('SUBSCRIBED');
    const [system] = await heardWithin(500);
    expect(system).toMatchObject({
      kind: 'system',
      payload: {
        status: 'error',
        message: expect.stringContaining('invalid column for filter email'),
      },
    });
  });

  it('hears nothing when a new address subscribes', async () => {
    await heardWithin(300);
    await subscribe({ email: unique(), lists: ['newsletter', 'early-access'] });
    expect(await heardWithin()).toEqual([]);
  });

  it('hears nothing when a known, confirmed address subscribes again', async () => {
    await subscribe({ email: 'ada@example.com', lists: ['newsletter', 'early-access'] });
    expect(await heardWithin()).toEqual([]);
  });

  it('hears nothing when a blocklisted address subscribes', async () => {
    const [row] = await sql<{ status: string }>(
      emu,
      `select status from public.subscribers where email = 'spam@example.com'`,
    );
    expect(row?.status).toBe('blocklisted');
    await subscribe({ email: 'spam@example.com', lists: ['newsletter', 'early-access'] });
    expect(await heardWithin()).toEqual([]);
  });

  it('hears nothing when a known address subscribes to a list it is not on', async () => {
    // grace is confirmed on newsletter and product-updates, not on the early-access waitlist.
    await subscribe({ email: 'grace@example.com', lists: ['early-access'] });
    expect(await heardWithin()).toEqual([]);
  });

  it('hears the public topics move once a subscription is confirmed, and nothing more', async () => {
    // A pending subscription (whether the call above made one or not) moves nothing.
    await sql(
      emu,
      `insert into public.subscriptions (subscriber_id, list_id, status)
       select u.id, l.id, 'pending' from public.subscribers u, public.lists l
        where u.email = 'grace@example.com' and l.slug = 'early-access'
       on conflict do nothing`,
    );
    expect(await heardWithin()).toEqual([]);
    await sql(
      emu,
      `update public.subscriptions s set status = 'confirmed' from public.subscribers u, public.lists l
        where u.id = s.subscriber_id and l.id = s.list_id and u.email = 'grace@example.com'
          and l.slug = 'early-access'`,
    );
    const heard = await heardWithin();
    expect(heard.map((h) => [h.channel, h.kind]).sort()).toEqual([
      ['subscriber-count', 'broadcast'],
      ['waitlist:early-access', 'broadcast'],
    ]);
    const waitlist = heard.find((h) => h.channel === 'waitlist:early-access')!.payload as {
      event: string;
      payload: Record<string, unknown>;
    };
    expect(waitlist.event).toBe('positions');
    // The list's slug (the page's own) and the message id realtime.send adds; no subscriber.
    expect(Object.keys(waitlist.payload).sort()).toEqual(['id', 'list']);
    const count = heard.find((h) => h.channel === 'subscriber-count')!.payload as {
      event: string;
      payload: Record<string, unknown>;
    };
    expect(count.event).toBe('changed');
    expect(Object.keys(count.payload)).toEqual(['id']);
  });

  it('hears no count while the owner hides it', async () => {
    await sql(emu, 'update public.settings set show_subscriber_count = false');
    try {
      await sql(
        emu,
        `update public.subscriptions s set status = 'unsubscribed' from public.subscribers u, public.lists l
          where u.id = s.subscriber_id and l.id = s.list_id and u.email = 'grace@example.com'
            and l.slug = 'early-access'`,
      );
      const heard = await heardWithin();
      expect(heard.map((h) => h.channel)).toEqual(['waitlist:early-access']);
    } finally {
      await sql(emu, 'update public.settings set show_subscriber_count = true');
    }
  });
});
