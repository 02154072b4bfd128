// subscribe (SPEC §7) through HTTP against the emulator with the real supabase/ folder: answers,
// writes, the confirmation mail, the honeypot and no enumeration (refusals and limits: subscribe-refusals).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import {
  callFunction,
  type CaughtMail,
  linkIn,
  mailFor,
  snapshot,
  sql,
  startFunctionsEmulator,
  TEST_SITE_URL,
  waitForMail,
  waitForMailWithSubject,
} from './kit';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startFunctionsEmulator({ trustedProxyHops: 1 });
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

const unique = () => `${Date.now()}-${randomBytes(4).toString('hex')}@example.com`;
/** A fresh client address per request, so only the per-email limit can apply unless a test wants the IP one. */
const ip = () => `10.${[1, 2, 3].map(() => randomBytes(1)[0]).join('.')}`;
const subscribe = (body: unknown, headers: Record<string, string> = {}) =>
  callFunction(emu, 'subscribe', { body, headers: { 'X-Forwarded-For': ip(), ...headers } });

async function stateOf(email: string) {
  return sql<{ list: string; status: string; name: string; referred_by: string | null }>(
    emu,
    `select l.slug as list, s.status, u.name, u.referred_by from public.subscribers u
     left join public.subscriptions s on s.subscriber_id = u.id
     left join public.lists l on l.id = s.list_id where u.email = $1 order by l.slug`,
    [email],
  );
}

/** A header of the message as it arrived (MailDev's JSON keeps only some headers; the source has all). */
async function rawHeader(mail: CaughtMail, name: string): Promise<string | null> {
  const source = await (await fetch(`${emu.mail!.url}/api/email/${mail.id}/source`)).text();
  const head = source.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head
    .split(/\r?\n/)
    .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : null;
}

/** Waits a moment and asserts that no mail arrived for `address` (mail goes out after the answer). */
async function expectNoMail(address: string) {
  await new Promise((r) => setTimeout(r, 1500));
  expect(await mailFor(emu, address)).toHaveLength(0);
}

describe('subscribe: success', () => {
  it('puts a new address on the main list as pending and mails a confirmation link', async () => {
    const email = unique();
    const res = await subscribe({ email: `  ${email.toUpperCase()} `, name: 'Visible Name Spam' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'pending' });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await stateOf(email)).toEqual([
      { list: 'newsletter', status: 'pending', name: 'Visible Name Spam', referred_by: null },
    ]);
    const events = await sql<{ type: string; data: { source: string; list: string } }>(
      emu,
      `select e.type, e.data from public.events e join public.subscribers s on s.id = e.subscriber_id where s.email = $1`,
      [email],
    );
    expect(events.map((e) => [e.type, e.data.list, e.data.source])).toEqual([
      ['subscribed', 'newsletter', 'form'],
    ]);

    const [mail] = await waitForMail(emu, email);
    expect(mail!.subject).toBe('Confirm your subscription to The Postbox Letter');
    // Nothing the visitor typed besides the address: the name is in neither part.
    expect(mail!.text).not.toContain('Visible Name Spam');
    expect(mail!.html).not.toContain('Visible Name Spam');
    expect(mail!.text).toContain('The newsletter');
    expect(mail!.text).toContain('Postbox, 1 Example Street, 10115 Berlin, Germany');
    expect(mail!.html).toContain('<!doctype html>');
    const confirm = linkIn(mail!, '/confirm/');
    expect(confirm.origin).toBe(TEST_SITE_URL);
    expect(confirm.searchParams.get('token')).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(linkIn(mail!, '/unsubscribe/').searchParams.get('token')).toBeTruthy();
    expect(linkIn(mail!, '/preferences/').searchParams.get('token')).toBeTruthy();
    expect(await rawHeader(mail!, 'List-Unsubscribe')).toMatch(
      new RegExp(
        `^<${emu.url}/functions/v1/unsubscribe\\?token=[\\w.-]+>, <mailto:hello@example\\.com\\?subject=unsubscribe>$`,
      ),
    );
    expect(await rawHeader(mail!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  });

  it('confirms at once on single opt-in lists: no confirmation email, only the list’s welcome', async () => {
    const email = unique();
    const res = await subscribe({ email, lists: ['product-updates'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'confirmed' });
    expect(await stateOf(email)).toMatchObject([{ list: 'product-updates', status: 'confirmed' }]);
    // The welcome is the list's seeded automation (issue 24), sent by the queue; nothing asks
    // this reader to confirm.
    const [welcome] = await waitForMail(emu, email, 1, 30_000);
    expect(welcome!.subject).toMatch(/^Welcome to /);
    expect(welcome!.text).toContain('You are now subscribed to');
    expect(welcome!.html).not.toContain('/confirm/');
    await new Promise((r) => setTimeout(r, 1500));
    expect(await mailFor(emu, email)).toHaveLength(1);
  });

  it('answers pending when any chosen list is double opt-in, and stores attributes', async () => {
    const email = unique();
    const res = await subscribe({
      email,
      lists: ['product-updates', 'early-access'],
      attributes: { plan: 'pro', seats: 3 },
    });
    expect(res.body).toEqual({ status: 'pending' });
    expect(await stateOf(email)).toMatchObject([
      { list: 'early-access', status: 'pending' },
      { list: 'product-updates', status: 'confirmed' },
    ]);
    const [row] = await sql<{ attributes: unknown }>(
      emu,
      'select attributes from public.subscribers where email = $1',
      [email],
    );
    expect(row!.attributes).toEqual({ plan: 'pro', seats: 3 });
    // Product updates is single opt-in: its welcome may arrive first; take the confirmation.
    const mail = await waitForMailWithSubject(emu, email, /^Confirm/);
    expect(mail.text).toContain('Early access waitlist');
    expect(mail.text).not.toContain('Product updates');
  });

  it('changes nothing of a known address until its owner follows the emailed link', async () => {
    // linus: known, unsubscribed everywhere; ada: confirmed. Neither is touched by the form.
    const res = await subscribe({ email: 'linus@example.com', name: 'Someone Else' });
    expect(res.body).toEqual({ status: 'pending' });
    expect(await stateOf('linus@example.com')).toMatchObject([
      { list: 'newsletter', status: 'unsubscribed', name: '' },
    ]);
    const ada = await subscribe({
      email: 'ada@example.com',
      name: 'Mallory',
      lists: ['newsletter'],
    });
    expect(ada.body).toEqual({ status: 'pending' });
    expect(await stateOf('ada@example.com')).toMatchObject([
      { list: 'early-access', status: 'confirmed', name: 'Ada Lovelace' },
      { list: 'newsletter', status: 'confirmed', name: 'Ada Lovelace' },
    ]);
    // linus was confirmed on nothing: the confirmation again, whose link resubscribes and renames.
    const [mail] = await waitForMail(emu, 'linus@example.com');
    expect(mail!.subject).toBe('Confirm your subscription to The Postbox Letter');
    expect(mail!.text).not.toContain('Someone Else');
    const confirmed = await callFunction(emu, 'confirm', {
      body: { token: linkIn(mail!, '/confirm/').searchParams.get('token') },
    });
    expect(confirmed.body).toEqual({
      lists: [{ slug: 'newsletter', name: 'The newsletter' }],
      updated: true,
    });
    expect(await stateOf('linus@example.com')).toMatchObject([
      { list: 'newsletter', status: 'confirmed', name: 'Someone Else' },
    ]);
    const [event] = await sql<{ type: string; source: string }>(
      emu,
      `select e.type, e.data->>'source' as source from public.events e
       join public.subscribers s on s.id = e.subscriber_id
       where s.email = 'linus@example.com' and e.type = 'resubscribed' order by e.id desc limit 1`,
    );
    expect(event).toEqual({ type: 'resubscribed', source: 'confirm-link' });
  });

  it("adds a known address's attributes only through the link, the submitted values winning", async () => {
    const email = unique();
    await subscribe({ email, lists: ['product-updates'], attributes: { city: 'Paris' } });
    await subscribe({
      email,
      lists: ['product-updates'],
      attributes: { city: 'Elsewhere', plan: 'pro' },
    });
    const attributes = async () =>
      (
        await sql<{ attributes: unknown }>(
          emu,
          'select attributes from public.subscribers where email = $1',
          [email],
        )
      )[0]!.attributes;
    expect(await attributes()).toEqual({ city: 'Paris' });
    const mail = await waitForMailWithSubject(emu, email, /already subscribed/);
    expect(mail.subject).toBe('You are already subscribed to The Postbox Letter');
    expect(mail.text).not.toMatch(/Elsewhere|plan|pro\b/);
    const applied = await callFunction(emu, 'confirm', {
      body: { token: linkIn(mail, '/confirm/').searchParams.get('token') },
    });
    expect(applied.status).toBe(200);
    expect(await attributes()).toEqual({ city: 'Elsewhere', plan: 'pro' });
  });

  it('records a referral from another subscriber, never from oneself', async () => {
    const [ada] = await sql<{ id: string; referral_code: string }>(
      emu,
      `select id, referral_code from public.subscribers where email = 'ada@example.com'`,
    );
    const friend = unique();
    await subscribe({ email: friend, ref: ada!.referral_code, lists: ['early-access'] });
    expect((await stateOf(friend))[0]!.referred_by).toBe(ada!.id);

    const me = unique();
    await subscribe({ email: me, lists: ['early-access'] });
    const [mine] = await sql<{ referral_code: string }>(
      emu,
      'select referral_code from public.subscribers where email = $1',
      [me],
    );
    await subscribe({ email: me, ref: mine!.referral_code, lists: ['early-access'] });
    expect((await stateOf(me))[0]!.referred_by).toBeNull();
    // A referral is set once, when the address is new: a later code does not move it.
    await subscribe({ email: friend, ref: mine!.referral_code, lists: ['early-access'] });
    expect((await stateOf(friend))[0]!.referred_by).toBe(ada!.id);
  });

  it('gives a referral code when an address joins a waitlist, not before, and keeps it', async () => {
    const email = unique();
    const code = async () =>
      (
        await sql<{ referral_code: string | null }>(
          emu,
          'select referral_code from public.subscribers where email = $1',
          [email],
        )
      )[0]!.referral_code;
    await subscribe({ email, lists: ['newsletter'] });
    expect(await code()).toBeNull();

    await subscribe({ email, lists: ['early-access'] });
    // A known address joins the waitlist when its owner confirms, and gets the code then.
    expect(await code()).toBeNull();
    const mails = await waitForMail(emu, email, 2);
    // The two mails may be caught in either order: take the one for the waitlist.
    const waitlistMail = mails.find((m) => /early access/i.test(m.text));
    expect(waitlistMail, 'the waitlist confirmation mail').toBeDefined();
    await callFunction(emu, 'confirm', {
      body: { token: linkIn(waitlistMail!, '/confirm/').searchParams.get('token') },
    });
    const given = await code();
    expect(given).toMatch(/^[a-z0-9]{10,11}$/);
    // Anyone can follow the link: the code is what the waitlist page asks for.
    const place = await callFunction(emu, 'waitlist', {
      method: 'GET',
      query: { code: given! },
    });
    expect(place.status).toBe(200);

    await subscribe({ email, lists: ['early-access', 'newsletter'] });
    expect(await code()).toBe(given);
  });
});

describe('subscribe: no enumeration', () => {
  it('answers known, unknown and blocklisted addresses byte for byte alike', async () => {
    const known = await subscribe({ email: 'grace@example.com', lists: ['newsletter'] });
    const unknown = await subscribe({ email: unique(), lists: ['newsletter'] });
    const before = await snapshot(emu);
    const blocked = await subscribe({ email: 'spam@example.com', lists: ['newsletter'] });
    expect(await snapshot(emu)).toBe(before);
    for (const res of [known, unknown, blocked]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    }
    expect(known.text).toBe(unknown.text);
    expect(blocked.text).toBe(unknown.text);
    await expectNoMail('spam@example.com');
  });

  it('a filled honeypot answers the usual 200 and changes and sends nothing', async () => {
    const email = unique();
    const before = await snapshot(emu);
    const res = await subscribe({ email, website: 'http://spam.example' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'pending' });
    const single = await subscribe({ email, lists: ['product-updates'], website: 'x' });
    expect(single.body).toEqual({ status: 'confirmed' });
    expect(await snapshot(emu)).toBe(before);
    await expectNoMail(email);
  });
});
