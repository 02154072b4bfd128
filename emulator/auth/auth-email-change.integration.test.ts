// Conformance: secure email change (`[auth.email] double_confirm_changes`, on by default as in
// GoTrue and the CLI) with email confirmations on, as GoTrue's api/user.go, mail.go and verify.go
// answer it: both addresses are mailed, and the change is applied once both links (or codes) are
// used; generate_link's `email_change_current` gives the current address's link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import {
  authFetch,
  client,
  codeIn,
  CONFIRMATIONS_CONFIG,
  fragmentOf,
  linkIn,
  mailCount,
  mailFor,
  startWithConfig,
  uniqueEmail,
} from './test-kit.js';

const HALFWAY =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

let emu: RunningEmulator & { cleanupDir(): Promise<void> };
beforeAll(async () => {
  emu = await startWithConfig(CONFIRMATIONS_CONFIG);
}, 120_000);
afterAll(async () => {
  await emu?.stop();
  await emu?.cleanupDir();
});

async function signedIn(tag: string) {
  const email = uniqueEmail(tag);
  const created = await client(emu, emu.keys.secret).auth.admin.createUser({
    email,
    password: 'secret123',
    email_confirm: true,
  });
  expect(created.error).toBeNull();
  const sb = client(emu, emu.keys.anon);
  expect((await sb.auth.signInWithPassword({ email, password: 'secret123' })).error).toBeNull();
  return { sb, email, id: created.data.user!.id };
}

const adminUser = async (id: string) =>
  (await client(emu, emu.keys.secret).auth.admin.getUserById(id)).data.user!;

describe('updateUser({ email }) with double_confirm_changes', () => {
  it('mails both addresses; the change waits for the second link', async () => {
    const { sb, email, id } = await signedIn('secure-from');
    const next = uniqueEmail('secure-to');
    const redirect = 'http://127.0.0.1:3000/changed';
    const { data, error } = await sb.auth.updateUser(
      { email: next },
      { emailRedirectTo: redirect },
    );
    expect(error).toBeNull();
    expect(data.user!.email).toBe(email);
    expect(data.user!.new_email).toBe(next);
    const toNew = await mailFor(emu, next);
    const toCurrent = await mailFor(emu, email);
    expect([toNew.subject, toCurrent.subject]).toEqual([
      'Confirm Email Change',
      'Confirm Email Change',
    ]);
    expect(linkIn(toNew)).not.toBe(linkIn(toCurrent));

    // The first link: a redirect carrying upstream's message, no session; nothing changed yet.
    const first = await fetch(linkIn(toCurrent), { redirect: 'manual' });
    expect(first.status).toBe(303);
    const location = first.headers.get('location')!;
    expect(location.startsWith(`${redirect}#`)).toBe(true);
    expect(Object.fromEntries(fragmentOf(location))).toEqual({ message: HALFWAY, sb: '' });
    expect((await adminUser(id)).email).toBe(email);
    expect((await adminUser(id)).new_email).toBe(next);

    // The same link again is spent.
    const again = await fetch(linkIn(toCurrent), { redirect: 'manual' });
    expect(fragmentOf(again.headers.get('location')!).get('error_code')).toBe('otp_expired');

    // The other link completes the change and signs in.
    const second = await fetch(linkIn(toNew), { redirect: 'manual' });
    const done = second.headers.get('location')!;
    expect(fragmentOf(done).get('type')).toBe('email_change');
    expect(fragmentOf(done).get('access_token')).toBeTruthy();
    const after = await adminUser(id);
    expect(after.email).toBe(next);
    expect(after.new_email).toBeUndefined();
    expect(after.identities![0]!.identity_data!.email).toBe(next);
  });

  it('verifyOtp: the first code answers the message, the second a session', async () => {
    const { sb, email, id } = await signedIn('otp-from');
    const next = uniqueEmail('otp-to');
    expect((await sb.auth.updateUser({ email: next })).error).toBeNull();
    const newCode = codeIn(await mailFor(emu, next));
    const currentCode = codeIn(await mailFor(emu, email));

    // A code checked against the wrong address matches nothing.
    const wrong = await authFetch(emu, '/verify', {
      method: 'POST',
      body: { type: 'email_change', email: next, token: currentCode },
    });
    expect(wrong.status).toBe(403);

    const first = await authFetch(emu, '/verify', {
      method: 'POST',
      body: { type: 'email_change', email: next, token: newCode },
    });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ msg: HALFWAY, code: '200' });
    expect((await adminUser(id)).email).toBe(email);

    const { data, error } = await sb.auth.verifyOtp({
      email,
      token: currentCode,
      type: 'email_change',
    });
    expect(error).toBeNull();
    expect(data.session).not.toBeNull();
    expect(data.user!.email).toBe(next);
  });

  it('PKCE: the first link redirects with the message in the query and the fragment', async () => {
    const { email } = await signedIn('pkce-from');
    const sb = client(emu, emu.keys.anon, 'pkce');
    expect((await sb.auth.signInWithPassword({ email, password: 'secret123' })).error).toBeNull();
    const next = uniqueEmail('pkce-to');
    const redirect = 'http://127.0.0.1:3000/changed';
    expect((await sb.auth.updateUser({ email: next }, { emailRedirectTo: redirect })).error).toBe(
      null,
    );
    const link = linkIn(await mailFor(emu, next));
    expect(link).toContain('token=pkce_');
    const first = await fetch(link, { redirect: 'manual' });
    const location = new URL(first.headers.get('location')!);
    expect(location.searchParams.get('message')).toBe(HALFWAY);
    expect(fragmentOf(location.href).get('message')).toBe(HALFWAY);
    const second = await fetch(linkIn(await mailFor(emu, email)), { redirect: 'manual' });
    expect(new URL(second.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });
});

describe('generate_link for a secure email change', () => {
  it('email_change_current and email_change_new: two links, applied after both', async () => {
    const { email, id } = await signedIn('gl-from');
    const next = uniqueEmail('gl-to');
    const admin = client(emu, emu.keys.secret);
    const current = await admin.auth.admin.generateLink({
      type: 'email_change_current',
      email,
      newEmail: next,
    });
    expect(current.error).toBeNull();
    expect(current.data.properties!.verification_type).toBe('email_change_current');
    expect(current.data.user!.new_email).toBe(next);
    const { action_link, hashed_token, email_otp } = current.data.properties!;
    expect(action_link).toContain(`token=${hashed_token}&type=email_change`);
    expect(email_otp).toMatch(/^\d{6}$/);
    const fresh = await admin.auth.admin.generateLink({
      type: 'email_change_new',
      email,
      newEmail: next,
    });
    expect(fresh.error).toBeNull();
    // generate_link mails nothing.
    expect(await mailCount(emu, email)).toBe(0);
    expect(await mailCount(emu, next)).toBe(0);

    const first = await fetch(action_link, { redirect: 'manual' });
    expect(fragmentOf(first.headers.get('location')!).get('message')).toBe(HALFWAY);
    expect((await adminUser(id)).email).toBe(email);
    const second = await fetch(fresh.data.properties!.action_link, { redirect: 'manual' });
    expect(fragmentOf(second.headers.get('location')!).get('access_token')).toBeTruthy();
    expect((await adminUser(id)).email).toBe(next);
  });
});
