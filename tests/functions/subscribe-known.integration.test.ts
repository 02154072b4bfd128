// subscribe for an address that already exists (issue 20 finding 2, issue 21 "Already
// subscribed"): the form changes nothing by itself; a confirmed address gets the already-subscribed
// notice with its preferences link and, when the form asked for changes, a link applying exactly
// those; the answer is the same as for a new address.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import {
  callFunction,
  type CaughtMail,
  createSubscriber,
  linkIn,
  mailFor,
  sql,
  startFunctionsEmulator,
  TEST_SITE_URL,
  waitForMail,
} from './kit';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startFunctionsEmulator({ trustedProxyHops: 1 });
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

const ip = () => `10.${[1, 2, 3].map(() => randomBytes(1)[0]).join('.')}`;
const subscribe = (body: unknown) =>
  callFunction(emu, 'subscribe', { body, headers: { 'X-Forwarded-For': ip() } });
const confirm = (mail: CaughtMail) =>
  callFunction(emu, 'confirm', {
    body: { token: linkIn(mail, '/confirm/').searchParams.get('token') },
  });

/** The subscriber's own data and subscriptions, to compare before and after. */
async function stored(id: string) {
  const [who] = await sql(
    emu,
    'select name, attributes, status from public.subscribers where id = $1',
    [id],
  );
  const lists = await sql<{ slug: string; status: string }>(
    emu,
    `select l.slug, s.status from public.subscriptions s join public.lists l on l.id = s.list_id
      where s.subscriber_id = $1 order by l.slug`,
    [id],
  );
  return { ...who, lists: Object.fromEntries(lists.map((l) => [l.slug, l.status])) };
}

describe('a confirmed address subscribing again', () => {
  it('stores nothing the form sent; the notice names no typed text; its link applies exactly that', async () => {
    const who = await createSubscriber(
      emu,
      { newsletter: 'confirmed' },
      { tag: 'known', name: 'Ada', attributes: { city: 'London' } },
    );
    const before = await stored(who.id);
    const res = await subscribe({
      email: who.email,
      name: 'Mallory <b>visit evil.example</b>',
      attributes: { role: 'admin' },
      lists: ['newsletter', 'early-access'],
    });
    expect([res.status, res.body]).toEqual([200, { status: 'pending' }]);
    expect(await stored(who.id)).toEqual(before);

    const [mail] = await waitForMail(emu, who.email);
    expect(mail!.subject).toBe('You are already subscribed to The Postbox Letter');
    // The HTML's words, not its markup (the layout's tables carry role="presentation").
    for (const part of [mail!.text, mail!.html.replace(/<[^>]*>/g, ' ')]) {
      expect(part).not.toMatch(/Mallory|evil\.example|role|admin/);
      expect(part).toContain('Postbox, 1 Example Street, 10115 Berlin, Germany');
    }
    expect(mail!.text).toContain('subscribe you to Early access waitlist');
    expect(mail!.text).toContain('change your name');
    expect(mail!.text).toContain('save the other details');
    expect(mail!.html).toContain('Apply these changes');
    // The preferences link reaches the mailbox's owner only, here.
    const prefs = await callFunction(emu, 'preferences', {
      query: { token: linkIn(mail!, '/preferences/').searchParams.get('token')! },
    });
    expect([prefs.status, prefs.body.email]).toEqual([200, who.email]);

    const applied = await confirm(mail!);
    expect([applied.status, applied.body.updated]).toEqual([200, true]);
    expect(applied.body.lists.map((l: { slug: string }) => l.slug).sort()).toEqual([
      'early-access',
      'newsletter',
    ]);
    expect(await stored(who.id)).toEqual({
      name: 'Mallory <b>visit evil.example</b>',
      attributes: { city: 'London', role: 'admin' },
      status: 'enabled',
      lists: { 'early-access': 'confirmed', newsletter: 'confirmed' },
    });
    // Single use, like every confirm link: opened again it answers the state and applies
    // nothing (an admin's later edit stays); a welcome for the list it confirmed.
    await sql(emu, `update public.subscribers set name = 'Edited later' where id = $1`, [who.id]);
    const again = await confirm(mail!);
    expect([again.status, again.body.already, again.body.updated]).toEqual([200, true, undefined]);
    expect(await stored(who.id)).toMatchObject({ name: 'Edited later' });
    // The welcome of the list it confirmed, sent by that list's welcome automation (issue 24).
    const welcome = (await waitForMail(emu, who.email, 2))[1]!;
    expect(welcome.subject).toBe('Welcome to The Postbox Letter');
    expect(welcome.text).toContain('You are now subscribed to Early access waitlist');
  }, 60_000);

  it('with nothing to change: the preferences link only, no change link', async () => {
    const who = await createSubscriber(
      emu,
      { newsletter: 'confirmed' },
      { tag: 'same', name: 'Grace' },
    );
    const res = await subscribe({ email: who.email, name: 'Grace', lists: ['newsletter'] });
    expect(res.body).toEqual({ status: 'pending' });
    const [mail] = await waitForMail(emu, who.email);
    expect(mail!.subject).toBe('You are already subscribed to The Postbox Letter');
    expect(mail!.text).not.toContain(`${TEST_SITE_URL}/confirm/`);
    expect(mail!.html).not.toContain('/confirm/');
    expect(mail!.html).toContain('Manage your preferences');
    expect(linkIn(mail!, '/preferences/').searchParams.get('token')).toBeTruthy();
    const [nonces] = await sql<{ n: number }>(
      emu,
      'select count(*)::int as n from private.confirm_nonces where subscriber_id = $1',
      [who.id],
    );
    expect(nonces!.n).toBe(0);
  });

  it('a single opt-in list for a known address waits for the link too', async () => {
    const who = await createSubscriber(emu, { newsletter: 'confirmed' }, { tag: 'single' });
    const res = await subscribe({ email: who.email, lists: ['product-updates'] });
    // The answer is what a new address gets on that list.
    expect(res.body).toEqual({ status: 'confirmed' });
    expect((await stored(who.id)).lists).toEqual({ newsletter: 'confirmed' });
    const [mail] = await waitForMail(emu, who.email);
    await confirm(mail!);
    expect((await stored(who.id)).lists).toEqual({
      newsletter: 'confirmed',
      'product-updates': 'confirmed',
    });
  });
});

describe('a known address confirmed on nothing', () => {
  it('gets the confirmation again; its link confirms and applies the name', async () => {
    const who = await createSubscriber(
      emu,
      { newsletter: 'pending' },
      { tag: 'pending', name: '' },
    );
    const before = await stored(who.id);
    await subscribe({ email: who.email, name: 'Alan', lists: ['newsletter'] });
    expect(await stored(who.id)).toEqual(before);
    const [mail] = await waitForMail(emu, who.email);
    expect(mail!.subject).toBe('Confirm your subscription to The Postbox Letter');
    expect(mail!.text).not.toContain('Alan');
    const res = await confirm(mail!);
    expect(res.body).toEqual({
      lists: [{ slug: 'newsletter', name: 'The newsletter' }],
      updated: true,
    });
    expect(await stored(who.id)).toMatchObject({
      name: 'Alan',
      lists: { newsletter: 'confirmed' },
    });
  });
});

describe('no enumeration', () => {
  it('a new, a confirmed and a blocklisted address get the same answer; only mail differs', async () => {
    const known = await createSubscriber(emu, { newsletter: 'confirmed' }, { tag: 'enum' });
    const blocked = await createSubscriber(
      emu,
      { newsletter: 'confirmed' },
      {
        tag: 'enum-blocked',
        status: 'blocklisted',
      },
    );
    const fresh = `enum-new-${Date.now()}@example.com`;
    const body = { name: 'X', attributes: { a: 1 }, lists: ['newsletter'] };
    const answers = await Promise.all(
      [known.email, blocked.email, fresh].map((email) => subscribe({ ...body, email })),
    );
    for (const res of answers) expect([res.status, res.text]).toEqual([200, answers[0]!.text]);
    expect((await waitForMail(emu, known.email))[0]!.subject).toMatch(/already subscribed/);
    expect((await waitForMail(emu, fresh))[0]!.subject).toMatch(/^Confirm/);
    expect(await mailFor(emu, blocked.email)).toHaveLength(0);
  });
});
