// Conformance: /reauthenticate and the nonce of a password change (secure_password_change on),
// generate_link for email changes, and signInWithIdToken with no provider enabled — through
// supabase-js and raw HTTP, answered as GoTrue answers them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import {
  authFetch,
  CLI_DEFAULTS_CONFIG,
  client,
  mailCount,
  mailFor,
  startWithConfig,
  uniqueEmail,
} from './test-kit.js';

const CONFIG = CLI_DEFAULTS_CONFIG.replace(
  'double_confirm_changes = true',
  'double_confirm_changes = false\nsecure_password_change = true',
);

let emu: RunningEmulator & { cleanupDir(): Promise<void> };
beforeAll(async () => {
  emu = await startWithConfig(CONFIG);
}, 120_000);
afterAll(async () => {
  await emu?.stop();
  await emu?.cleanupDir();
});

async function signedIn(tag: string) {
  const email = uniqueEmail(tag);
  const c = client(emu, emu.keys.anon);
  const { data, error } = await c.auth.signUp({ email, password: 'first-pass' });
  expect(error).toBeNull();
  return { c, email, session: data.session! };
}

/** Makes the user's sessions a day old, so a password change needs reauthentication. */
const ageSessions = (userId: string) =>
  emu.db.query(
    `update auth.sessions set created_at = now() - interval '25 hours' where user_id = $1`,
    [userId],
  );

describe('reauthentication', () => {
  it('mails a nonce that a password change of an old session needs, once', async () => {
    const { c, email, session } = await signedIn('reauth');
    // A session younger than a day changes the password without a nonce.
    expect((await c.auth.updateUser({ password: 'second-pass' })).error).toBeNull();

    await ageSessions(session.user.id);
    const none = await c.auth.updateUser({ password: 'third-pass' });
    expect([none.error?.status, none.error?.code, none.error?.message]).toEqual([
      400,
      'reauthentication_needed',
      'Password update requires reauthentication',
    ]);

    expect((await c.auth.reauthenticate()).error).toBeNull();
    const mail = await mailFor(emu, email, 1);
    expect(mail.subject).toBe('Confirm reauthentication');
    const nonce = /Enter the code: (\d+)/.exec(mail.text)?.[1] ?? '';
    expect(nonce).toMatch(/^\d{6}$/);

    const wrong = await c.auth.updateUser({ password: 'third-pass', nonce: '000000' });
    expect([wrong.error?.status, wrong.error?.code, wrong.error?.message]).toEqual([
      422,
      'reauthentication_not_valid',
      'Nonce has expired or is invalid',
    ]);
    expect((await c.auth.updateUser({ password: 'third-pass', nonce })).error).toBeNull();
    const again = await c.auth.updateUser({ password: 'fourth-pass', nonce });
    expect(again.error?.code).toBe('reauthentication_not_valid');

    const fresh = client(emu, emu.keys.anon);
    expect(
      (await fresh.auth.signInWithPassword({ email, password: 'third-pass' })).error,
    ).toBeNull();
  });

  it('asks an unconfirmed address to verify first, and needs a session', async () => {
    // The anon key is no user's token (as upstream: a JWT without `sub`).
    const anonymous = await authFetch(emu, '/reauthenticate');
    expect(anonymous.status).toBe(403);
    await anonymous.arrayBuffer();
    const { session } = await signedIn('unconfirmed');
    await emu.db.query('update auth.users set email_confirmed_at = null where id = $1', [
      session.user.id,
    ]);
    const res = await authFetch(emu, '/reauthenticate', { token: session.access_token });
    expect([res.status, await res.json()]).toEqual([
      422,
      { code: 'email_not_confirmed', message: 'Please verify your email first.' },
    ]);
  });
});

describe('generate_link for email changes', () => {
  const generate = (body: Record<string, unknown>) =>
    authFetch(emu, '/admin/generate_link', {
      method: 'POST',
      apikey: emu.keys.serviceRole,
      token: emu.keys.serviceRole,
      body,
    });

  it('email_change_new: a link to the new address that completes the change', async () => {
    const { email } = await signedIn('change');
    const newEmail = uniqueEmail('changed');
    const admin = client(emu, emu.keys.serviceRole);
    const { data, error } = await admin.auth.admin.generateLink({
      type: 'email_change_new',
      email,
      newEmail,
    });
    expect(error).toBeNull();
    expect(data.properties!.verification_type).toBe('email_change_new');
    expect(data.user!.new_email).toBe(newEmail);
    expect(data.properties!.action_link).toContain('type=email_change');
    const verified = await fetch(data.properties!.action_link, { redirect: 'manual' });
    expect(verified.status).toBe(303);
    expect(verified.headers.get('location')).toContain('access_token=');
    const { data: after } = await admin.auth.admin.getUserById(data.user!.id);
    expect(after.user?.email).toBe(newEmail);
    // No email was sent: generate_link only answers the link.
    expect(await mailCount(emu, newEmail)).toBe(0);
  }, 30_000);

  it('answers as upstream for a missing user, a taken address and the current address', async () => {
    const { email } = await signedIn('taken');
    const other = (await signedIn('other')).email;
    const missing = await generate({
      type: 'email_change_new',
      email: uniqueEmail('nobody'),
      new_email: 'x@example.com',
    });
    expect([missing.status, (await missing.json()).code]).toEqual([404, 'user_not_found']);
    const taken = await generate({ type: 'email_change_new', email, new_email: other });
    expect([taken.status, (await taken.json()).code]).toEqual([422, 'email_exists']);
    const current = await generate({
      type: 'email_change_current',
      email,
      new_email: uniqueEmail('n'),
    });
    expect([current.status, await current.json()]).toEqual([
      400,
      {
        code: 'validation_failed',
        message: 'Enable secure email change to generate link for current email',
      },
    ]);
  });
});

describe('signInWithIdToken with no provider enabled', () => {
  it('answers provider_disabled naming the issuer, as hosted without that provider', async () => {
    const c = client(emu, emu.keys.anon);
    const google = await c.auth.signInWithIdToken({ provider: 'google', token: 'a.b.c' });
    expect([google.error?.status, google.error?.code, google.error?.message]).toEqual([
      400,
      'provider_disabled',
      'Provider (issuer "https://accounts.google.com") is not enabled',
    ]);
    const payload = Buffer.from(JSON.stringify({ iss: 'https://appleid.apple.com' })).toString(
      'base64url',
    );
    const apple = await c.auth.signInWithIdToken({ provider: 'apple', token: `x.${payload}.y` });
    expect(apple.error?.message).toBe(
      'Provider (issuer "https://appleid.apple.com") is not enabled',
    );
    const garbled = await c.auth.signInWithIdToken({ provider: 'apple', token: 'nope' });
    expect([garbled.error?.status, garbled.error?.message]).toEqual([
      400,
      'Unable to detect issuer in ID token for Apple provider',
    ]);
  });

  it('answers OAuth-style errors for a missing token and unknown providers as validation errors', async () => {
    const noToken = await authFetch(emu, '/token?grant_type=id_token', {
      method: 'POST',
      body: { provider: 'google' },
    });
    expect([noToken.status, await noToken.json()]).toEqual([
      400,
      { error: 'invalid request', error_description: 'id_token required' },
    ]);
    const unknown = await authFetch(emu, '/token?grant_type=id_token', {
      method: 'POST',
      body: { provider: 'myidp', id_token: 'a.b.c' },
    });
    expect([unknown.status, await unknown.json()]).toEqual([
      400,
      { code: 'validation_failed', message: 'Custom OIDC provider "myidp" not allowed' },
    ]);
  });
});
