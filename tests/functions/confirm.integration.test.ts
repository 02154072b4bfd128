// confirm (SPEC §7) through HTTP against the emulator: the emailed link confirms once, answers the
// lists and the waitlist place, and the list's welcome automation (issue 24) sends the welcome at
// once (the confirmation starts a process-queue run; this emulator's scheduler is paused); forged, expired, reused and malformed tokens and
// bad requests are refused and change nothing.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import {
  callFunction,
  linkIn,
  snapshot,
  signTestToken,
  sql,
  startFunctionsEmulator,
  TEST_SITE_URL,
  waitForMail,
  waitForMailWhere,
} from './kit';
import { until } from '../campaigns/kit';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startFunctionsEmulator({ trustedProxyHops: 1 });
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

const unique = () => `${Date.now()}-${randomBytes(4).toString('hex')}@example.com`;
const ip = () => `10.${[1, 2, 3].map(() => randomBytes(1)[0]).join('.')}`;
const subscribe = (body: unknown) =>
  callFunction(emu, 'subscribe', { body, headers: { 'X-Forwarded-For': ip() } });
const confirm = (token: unknown) => callFunction(emu, 'confirm', { body: { token } });

/** Subscribes `email` and returns the token of the confirm link it was mailed (its `nth` mail). */
async function signupToken(email: string, lists?: string[], nth = 1): Promise<string> {
  const res = await subscribe({ email, ...(lists ? { lists } : {}) });
  expect(res.status).toBe(200);
  // Only the mails with a confirm link: a single opt-in list's welcome may come in between.
  const mails = await waitForMailWhere(emu, email, (m) => m.text.includes('/confirm/'), nth);
  return linkIn(mails[mails.length - 1]!, '/confirm/').searchParams.get('token')!;
}

const statusOf = async (email: string) =>
  sql<{ list: string; status: string }>(
    emu,
    `select l.slug as list, s.status from public.subscriptions s join public.subscribers u on u.id = s.subscriber_id
     join public.lists l on l.id = s.list_id where u.email = $1 order by l.slug`,
    [email],
  );

describe('confirm: the emailed link', () => {
  it('confirms the pending lists once, answers them and sends a welcome', async () => {
    const email = unique();
    const token = await signupToken(email, ['newsletter', 'product-updates']);
    const res = await confirm(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      lists: [{ slug: 'newsletter', name: 'The newsletter' }],
    });
    expect(await statusOf(email)).toEqual([
      { list: 'newsletter', status: 'confirmed' },
      { list: 'product-updates', status: 'confirmed' },
    ]);
    const [event] = await sql<{ type: string; data: { source: string } }>(
      emu,
      `select e.type, e.data from public.events e join public.subscribers s on s.id = e.subscriber_id
       where s.email = $1 order by e.id desc limit 1`,
      [email],
    );
    expect(event).toMatchObject({ type: 'confirmed', data: { source: 'confirm-link' } });

    // Two welcomes, one per list's welcome automation: Product updates (single opt-in) at the
    // sign-up, The newsletter at the confirmation.
    const welcomes = (
      await waitForMailWhere(emu, email, (m) => m.subject.startsWith('Welcome'), 2)
    ).sort((a, b) => a.text.localeCompare(b.text));
    expect(welcomes.map((m) => m.subject)).toEqual([
      'Welcome to The Postbox Letter',
      'Welcome to The Postbox Letter',
    ]);
    expect(welcomes[0]!.text).toContain('You are now subscribed to Product updates from');
    expect(welcomes[1]!.text).toContain('You are now subscribed to The newsletter from');
    const welcome = welcomes[1]!;
    expect(welcome.text).toContain('Postbox, 1 Example Street');
    expect(linkIn(welcome, '/unsubscribe/').origin).toBe(TEST_SITE_URL);
    expect(linkIn(welcome, '/preferences/').origin).toBe(TEST_SITE_URL);
    // Each recorded as the welcome automation's send (recorded just after the mail went out).
    const sends = () =>
      sql<{ name: string; status: string }>(
        emu,
        `select a.name, x.status from public.automation_sends x
           join public.automations a on a.id = x.automation_id
           join public.subscribers s on s.id = x.subscriber_id
          where s.email = $1 order by a.name`,
        [email],
      );
    await until(async () => (await sends()).length === 2, 15_000, 'the welcome sends');
    expect(await sends()).toEqual([
      { name: 'Welcome to Product updates', status: 'sent' },
      { name: 'Welcome to The newsletter', status: 'sent' },
    ]);

    // The same link again: the current state, marked already; nothing changes and no second
    // welcome goes out.
    const before = await snapshot(emu);
    const again = await confirm(token);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      lists: [{ slug: 'newsletter', name: 'The newsletter' }],
      already: true,
    });
    expect(await snapshot(emu)).toBe(before);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await waitForMail(emu, email, 3)).toHaveLength(3);
  }, 60_000);

  it('answers the waitlist place with the referral link on a waitlist list', async () => {
    const email = unique();
    const token = await signupToken(email, ['early-access']);
    const res = await confirm(token);
    expect(res.status).toBe(200);
    const [me] = await sql<{ referral_code: string }>(
      emu,
      'select referral_code from public.subscribers where email = $1',
      [email],
    );
    const [{ total }] = (await sql<{ total: number }>(
      emu,
      `select count(*)::int as total from public.subscriptions s join public.lists l on l.id = s.list_id
       where l.slug = 'early-access' and s.status = 'confirmed'`,
    )) as [{ total: number }];
    expect(res.body).toEqual({
      lists: [{ slug: 'early-access', name: 'Early access waitlist' }],
      waitlist: {
        list: { slug: 'early-access', name: 'Early access waitlist' },
        position: total,
        total,
        referrals: 0,
        code: me!.referral_code,
        url: `${TEST_SITE_URL}/?ref=${me!.referral_code}&list=early-access`,
      },
    });
    const mails = await waitForMail(emu, email, 2);
    expect(mails[1]!.text).toContain(`You are number ${total} on the Early access waitlist`);
    expect(mails[1]!.text).toContain(
      `${TEST_SITE_URL}/?ref=${me!.referral_code}&list=early-access`,
    );
    // The welcome links to the live place page.
    const live = linkIn(mails[1]!, '/waitlist/');
    expect(live.origin).toBe(TEST_SITE_URL);
    expect(live.searchParams.get('code')).toBe(me!.referral_code);
    expect(live.searchParams.get('list')).toBe('early-access');
  });

  it('a used link on a waitlist answers the current place, after others moved it', async () => {
    const email = unique();
    const token = await signupToken(email, ['early-access']);
    const first = await confirm(token);
    expect(first.status).toBe(200);
    const code = first.body.waitlist.code as string;
    // A friend joins through the referral link and confirms: the referrer's count changes.
    const friend = unique();
    const res = await subscribe({ email: friend, lists: ['early-access'], ref: code });
    expect(res.status).toBe(200);
    const [friendMail] = await waitForMail(emu, friend);
    await confirm(linkIn(friendMail!, '/confirm/').searchParams.get('token'));

    const before = await snapshot(emu);
    const again = await confirm(token);
    expect(again.status).toBe(200);
    expect(again.body.already).toBe(true);
    expect(again.body.lists).toEqual([{ slug: 'early-access', name: 'Early access waitlist' }]);
    expect(again.body.waitlist).toMatchObject({ code, referrals: 1 });
    expect(again.body.waitlist.position).toBeLessThanOrEqual(first.body.waitlist.position);
    expect(await snapshot(emu)).toBe(before);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await waitForMail(emu, email, 2)).toHaveLength(2);
  });

  it('a used link after an unsubscribe answers no lists, and does not resubscribe', async () => {
    const email = unique();
    const token = await signupToken(email);
    expect((await confirm(token)).status).toBe(200);
    await sql(
      emu,
      `update public.subscriptions s set status = 'unsubscribed' from public.subscribers u
       where u.id = s.subscriber_id and u.email = $1`,
      [email],
    );
    const again = await confirm(token);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ lists: [], already: true });
    expect(await statusOf(email)).toEqual([{ list: 'newsletter', status: 'unsubscribed' }]);
  });

  it('a second signup mails a second link; each works once', async () => {
    const email = unique();
    const first = await signupToken(email);
    const second = await signupToken(email, undefined, 2);
    expect(second).not.toBe(first);
    expect((await confirm(second)).status).toBe(200);
    // The first link still has its nonce: it is accepted, and confirms nothing new.
    const late = await confirm(first);
    expect(late.status).toBe(200);
    expect(late.body).toEqual({ lists: [{ slug: 'newsletter', name: 'The newsletter' }] });
    // Each used once; opened again, both answer the state as already confirmed.
    expect((await confirm(first)).body.already).toBe(true);
    expect((await confirm(second)).body.already).toBe(true);
  });

  it('does not confirm a subscriber blocklisted since the link was sent', async () => {
    const email = unique();
    const token = await signupToken(email);
    await sql(emu, `update public.subscribers set status = 'blocklisted' where email = $1`, [
      email,
    ]);
    const before = await snapshot(emu);
    const res = await confirm(token);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('token_invalid');
    expect(await snapshot(emu)).toBe(before);
  });
});

describe('confirm: refusals change nothing', () => {
  let payload: { p: string; s: string; l: string[]; e: number; n: string };
  beforeAll(async () => {
    const email = unique();
    const token = await signupToken(email);
    payload = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString());
  });

  const cases: [
    string,
    () => Promise<{ status: number; body: { error: { code: string } } }>,
    number,
    string,
  ][] = [
    [
      'forged signature',
      () => confirm(signTestToken(payload, 'not-the-secret')),
      400,
      'token_invalid',
    ],
    [
      'expired link',
      () => confirm(signTestToken({ ...payload, e: Math.floor(Date.now() / 1000) - 60 })),
      410,
      'token_expired',
    ],
    [
      'unknown nonce',
      () => confirm(signTestToken({ ...payload, n: randomBytes(16).toString('hex') })),
      400,
      'token_invalid',
    ],
    [
      'another purpose',
      () => confirm(signTestToken({ ...payload, p: 'unsubscribe' })),
      400,
      'token_invalid',
    ],
    ['no lists', () => confirm(signTestToken({ ...payload, l: [] })), 400, 'token_invalid'],
    [
      'subscriber not a uuid',
      () => confirm(signTestToken({ ...payload, s: 'x' })),
      400,
      'token_invalid',
    ],
    ['malformed token', () => confirm('not.a.token'), 400, 'token_invalid'],
    ['missing token', () => callFunction(emu, 'confirm', { body: {} }), 400, 'token_invalid'],
    ['token not a string', () => confirm(42), 400, 'token_invalid'],
    [
      'wrong method',
      () => callFunction(emu, 'confirm', { method: 'GET' }),
      405,
      'method_not_allowed',
    ],
    [
      'wrong content type',
      () =>
        callFunction(emu, 'confirm', {
          rawBody: 'token=x',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        }),
      422,
      'invalid_input',
    ],
    [
      'invalid JSON',
      () =>
        callFunction(emu, 'confirm', {
          rawBody: '{',
          headers: { 'Content-Type': 'application/json' },
        }),
      422,
      'invalid_input',
    ],
    ['body over 16 KB', () => confirm('t'.repeat(17_000)), 413, 'payload_too_large'],
  ];
  it.each(cases)('%s', async (_name, call, status, code) => {
    const before = await snapshot(emu);
    const res = await call();
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect(await snapshot(emu)).toBe(before);
  });

  it('the genuine token still works after all that', async () => {
    const res = await confirm(signTestToken(payload));
    expect(res.status).toBe(200);
    expect(res.body.lists).toEqual([{ slug: 'newsletter', name: 'The newsletter' }]);
  });

  it('answers the CORS preflight', async () => {
    const res = await callFunction(emu, 'confirm', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});
