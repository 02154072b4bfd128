// auth-email, the Send Email Hook (config.toml [auth.hook.send_email]), against the emulator: Auth's
// own requests (sign-in, invite, recovery, email change) arrive as Postbox's emails with the
// site's name and postal address, and the function refuses calls without Auth's signature.
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { callFunction, clientFor, startFunctionsEmulator, waitForMail } from './kit';

// A secret of the test's own, so the pass proves Auth and the function read the same setting.
const SECRET = `v1,whsec_${Buffer.from(`auth-email-test-${randomUUID()}`).toString('base64')}`;
const SITE = 'The Postbox Letter';
const POSTAL = 'Postbox, 1 Example Street, 10115 Berlin, Germany';

let emu: RunningEmulator;
beforeAll(async () => {
  process.env.POSTBOX_AUTH_HOOK_SECRET = SECRET;
  emu = await startFunctionsEmulator();
}, 60_000);
afterAll(async () => {
  await emu?.stop();
  delete process.env.POSTBOX_AUTH_HOOK_SECRET;
});

const unique = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@example.com`;

/** Signs as standardwebhooks does (and as Auth does), with `secret` and `timestamp`. */
function signedHeaders(body: string, secret = SECRET, timestamp = Math.floor(Date.now() / 1000)) {
  const id = `msg_${randomUUID()}`;
  const key = Buffer.from(secret.replace(/^v1,whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return {
    'Content-Type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${mac}`,
  };
}

function payload(type: string, user: Record<string, unknown>, extra: Record<string, string> = {}) {
  return {
    user: { id: randomUUID(), aud: 'authenticated', ...user },
    email_data: {
      token: '123456',
      token_hash: 'pkce_abc',
      redirect_to: 'http://127.0.0.1:3999/auth/callback/',
      email_action_type: type,
      site_url: emu.url,
      token_new: '',
      token_hash_new: '',
      ...extra,
    },
  };
}

const hook = (body: string, headers: Record<string, string>) =>
  callFunction(emu, 'auth-email', { rawBody: body, headers });

/** The one code a sign-in email shows (six digits on a line of its own). */
const codeIn = (text: string) => /^(\d{6})$/m.exec(text)?.[1];

async function confirmedUser(email: string): Promise<string> {
  const { data, error } = await clientFor(emu, 'service').auth.admin.createUser({
    email,
    email_confirm: true,
  });
  if (error) throw error;
  return data.user!.id;
}

describe('Auth emails through the hook', () => {
  it('a sign-in email carries the link, the 6-digit code, the site name and the postal address', async () => {
    const email = unique('signin');
    await confirmedUser(email);
    const browser = clientFor(emu, 'publishable');
    const asked = await browser.auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    expect(asked.error).toBeNull();
    const [mail] = await waitForMail(emu, email);
    expect(mail!.subject).toBe(`Your sign-in link for ${SITE}`);
    expect(mail!.from[0]!.address).toBe('hello@example.com');
    expect(mail!.text.split('\n')[0]).toBe(SITE);
    expect(mail!.text).toContain(POSTAL);
    expect(mail!.text).toMatch(new RegExp(`Sign in: ${emu.url}/auth/v1/verify\\?token=`));
    expect(mail!.html).toMatch(
      new RegExp(`font-weight: ?700; ?color: ?#[0-9a-f]{6};?">${SITE}</span>`),
    );
    expect(mail!.html).toContain(POSTAL);
    const code = codeIn(mail!.text)!;
    expect(code).toMatch(/^\d{6}$/);
    expect(mail!.html).toContain(code);
    // The code signs in wherever it is typed (no PKCE verifier needed).
    const other = clientFor(emu, 'publishable');
    const verified = await other.auth.verifyOtp({ email, token: code, type: 'email' });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe(email);
  });

  it('the invite names the team, who invited and the role, and its link signs in', async () => {
    const email = unique('invitee');
    const invited = await clientFor(emu, 'service').auth.admin.inviteUserByEmail(email, {
      data: { invited_by_email: 'owner@example.com', role: 'editor' },
      redirectTo: 'http://127.0.0.1:3999/auth/callback/',
    });
    expect(invited.error).toBeNull();
    const [mail] = await waitForMail(emu, email);
    expect(mail!.subject).toBe(`owner@example.com invited you to the team at ${SITE}`);
    expect(mail!.text).toContain('owner@example.com invited you to help run The Postbox Letter');
    expect(mail!.text).toContain('as an editor (writing campaigns and sending tests)');
    expect(mail!.text).toContain('next time, sign in on the login page with this address');
    const link = /Accept the invitation: (\S+)/.exec(mail!.text)![1]!;
    const res = await fetch(link, { redirect: 'manual' });
    expect(res.headers.get('location')).toMatch(
      /^http:\/\/127\.0\.0\.1:3999\/auth\/callback\/#access_token=/,
    );
  });

  it('recovery and email change come as Postbox emails too', async () => {
    const email = unique('recover');
    await confirmedUser(email);
    expect(
      (await clientFor(emu, 'publishable').auth.resetPasswordForEmail(email)).error,
    ).toBeNull();
    const [reset] = await waitForMail(emu, email);
    expect(reset!.subject).toBe(`Reset your password for ${SITE}`);
    expect(reset!.text).toMatch(/Reset password: \S+type=recovery/);

    const password = `pw-${randomUUID()}`;
    const owner = unique('mover');
    await clientFor(emu, 'service').auth.admin.createUser({
      email: owner,
      password,
      email_confirm: true,
    });
    const me = clientFor(emu, 'publishable');
    await me.auth.signInWithPassword({ email: owner, password });
    const fresh = unique('moved');
    expect((await me.auth.updateUser({ email: fresh })).error).toBeNull();
    const [change] = await waitForMail(emu, fresh);
    expect(change!.subject).toBe(`Confirm your new email address for ${SITE}`);
    expect(change!.text).toContain(`changes to ${fresh}`);
    expect(change!.text).toMatch(/Confirm the change: \S+type=email_change/);
  });

  it('renders every type Auth sends, reauthentication and a secure email change included', async () => {
    const cases: Array<[string, Record<string, string>, string, RegExp]> = [
      ['signup', {}, `Confirm your address for ${SITE}`, /Confirm and sign in: \S+type=signup/],
      ['magiclink', {}, `Your sign-in link for ${SITE}`, /^123456$/m],
      ['recovery', {}, `Reset your password for ${SITE}`, /type=recovery/],
      ['invite', {}, `You are invited to the team at ${SITE}`, /An owner of the team invited/],
      ['reauthentication', {}, `Your confirmation code for ${SITE}`, /Your code:\n123456/],
    ];
    for (const [type, extra, subject, body] of cases) {
      const email = unique(type);
      const text = JSON.stringify(payload(type, { email }, extra));
      const res = await hook(text, signedHeaders(text));
      expect(res.status, `${type}: ${res.text}`).toBe(200);
      const [mail] = await waitForMail(emu, email);
      expect(mail!.subject).toBe(subject);
      expect(mail!.text).toMatch(body);
      expect(mail!.text).toContain(POSTAL);
    }
    // Secure email change: the current address confirms with token + token_hash_new, the new
    // one with token_new + token_hash (as Auth fills them).
    const current = unique('current');
    const next = unique('next');
    const text = JSON.stringify(
      payload(
        'email_change',
        { email: current, new_email: next },
        { token_new: '654321', token_hash_new: 'hash-current', token_hash: 'hash-new' },
      ),
    );
    expect((await hook(text, signedHeaders(text))).status).toBe(200);
    const [toCurrent] = await waitForMail(emu, current);
    const [toNext] = await waitForMail(emu, next);
    expect(toCurrent!.text).toContain('token=hash-current&type=email_change');
    expect(toNext!.text).toContain('token=hash-new&type=email_change');
  });
});

describe('the signature', () => {
  it('refuses a forged, a stale, an unsigned and a tampered call, and sends nothing', async () => {
    const email = unique('forged');
    const text = JSON.stringify(payload('magiclink', { email }));
    const other = `v1,whsec_${Buffer.from('someone-else-entirely-0123456789').toString('base64')}`;
    const stale = Math.floor(Date.now() / 1000) - 10 * 60;
    const tampered = signedHeaders(text);
    for (const [what, body, headers] of [
      ['forged', text, signedHeaders(text, other)],
      ['stale', text, signedHeaders(text, SECRET, stale)],
      ['unsigned', text, { 'Content-Type': 'application/json' }],
      ['tampered', text.replace('123456', '000000'), tampered],
    ] as const) {
      const res = await hook(body, headers);
      expect(res.status, what).toBe(401);
      expect(res.body).toEqual({
        error: { http_code: 401, message: 'Invalid or expired webhook signature.' },
      });
    }
    const good = await hook(text, signedHeaders(text));
    expect(good.status).toBe(200);
    expect(good.body).toEqual({});
    // Only the signed call was sent.
    expect(await waitForMail(emu, email)).toHaveLength(1);
  });
});
