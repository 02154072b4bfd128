// Conformance: phone numbers without SMS, as GoTrue answers with no SMS provider (the CLI's
// default): the admin API stores a phone (phone_confirm confirms it) and sends nothing, PUT /user
// applies a phone change at once under SMS autoconfirm, and what would send an SMS answers the 4xx
// of a disabled phone provider, never a 501 (admin.go, user.go, reauthenticate.go, token.go).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import {
  authFetch,
  CLI_DEFAULTS_CONFIG,
  client,
  startWithConfig,
  uniqueEmail,
} from './test-kit.js';

const CONFIG = CLI_DEFAULTS_CONFIG.replace(
  'enable_anonymous_sign_ins = false',
  'enable_anonymous_sign_ins = true',
);

let emu: RunningEmulator & { cleanupDir(): Promise<void> };
beforeAll(async () => {
  emu = await startWithConfig(CONFIG);
}, 120_000);
afterAll(async () => {
  await emu?.stop();
  await emu?.cleanupDir();
});

let n = 0;
/** A fresh E.164 number (without the `+`, as Auth stores it). */
const uniquePhone = () => `1555${String(Date.now() % 1_000_000).padStart(6, '0')}${n++ % 10}`;

const admin = () => client(emu, emu.keys.secret).auth.admin;

describe('the admin API', () => {
  it('creates a phone-only user with phone_confirm, sending nothing', async () => {
    const phone = uniquePhone();
    const { data, error } = await admin().createUser({
      phone: `+${phone.slice(0, 1)} ${phone.slice(1)}`,
      phone_confirm: true,
    });
    expect(error).toBeNull();
    const user = data.user!;
    expect(user.phone).toBe(phone);
    expect(user.phone_confirmed_at).toBeTruthy();
    expect(user.confirmed_at).toBe(user.phone_confirmed_at);
    expect(user.email).toBe('');
    expect(user.app_metadata).toEqual({ provider: 'phone', providers: ['phone'] });
    expect(user.identities).toHaveLength(1);
    expect(user.identities![0]).toMatchObject({
      provider: 'phone',
      id: user.id,
      identity_data: { sub: user.id, phone, email_verified: false, phone_verified: false },
    });
    const listed = await admin().listUsers({ perPage: 1000 });
    expect(listed.data.users.find((u) => u.id === user.id)?.phone).toBe(phone);
    expect((await admin().getUserById(user.id)).data.user!.phone).toBe(phone);
  });

  it('answers upstream errors for a taken or malformed phone, and for no email or phone', async () => {
    const phone = uniquePhone();
    expect((await admin().createUser({ phone })).error).toBeNull();
    const taken = await admin().createUser({ phone, email: uniqueEmail('taken') });
    expect([taken.error?.status, taken.error?.code, taken.error?.message]).toEqual([
      422,
      'phone_exists',
      'Phone number already registered by another user',
    ]);
    const bad = await admin().createUser({ phone: '+0123' });
    expect([bad.error?.status, bad.error?.code, bad.error?.message]).toEqual([
      400,
      'validation_failed',
      'Invalid phone number format (E.164 required)',
    ]);
    const none = await admin().createUser({ password: 'secret123' });
    expect(none.error?.message).toBe('Cannot create a user without either an email or phone');
  });

  it('adds and confirms a phone on an email user, with a phone identity', async () => {
    const email = uniqueEmail('with-phone');
    const phone = uniquePhone();
    const created = await admin().createUser({ email, phone, email_confirm: true });
    expect(created.error).toBeNull();
    expect(created.data.user!.phone_confirmed_at).toBeUndefined();
    expect(created.data.user!.app_metadata.providers).toEqual(['email', 'phone']);
    const next = uniquePhone();
    const { data, error } = await admin().updateUserById(created.data.user!.id, {
      phone: next,
      phone_confirm: true,
    });
    expect(error).toBeNull();
    expect(data.user!.phone).toBe(next);
    expect(data.user!.phone_confirmed_at).toBeTruthy();
    const identity = data.user!.identities!.find((i) => i.provider === 'phone');
    expect(identity?.identity_data).toMatchObject({ phone: next, phone_verified: true });
    expect(data.user!.identities).toHaveLength(2);
  });
});

describe('the user’s own phone, without SMS', () => {
  it('PUT /user applies a phone change at once under SMS autoconfirm', async () => {
    const email = uniqueEmail('own-phone');
    await admin().createUser({ email, password: 'secret123', email_confirm: true });
    const sb = client(emu, emu.keys.anon);
    await sb.auth.signInWithPassword({ email, password: 'secret123' });
    const phone = uniquePhone();
    const { data, error } = await sb.auth.updateUser({ phone });
    expect(error).toBeNull();
    expect(data.user!.phone).toBe(phone);
    expect(data.user!.phone_confirmed_at).toBeTruthy();
    const settings = await (await authFetch(emu, '/settings')).json();
    expect(settings.phone_autoconfirm).toBe(true);
  });

  it('reauthentication of a phone-only user answers the disabled phone provider', async () => {
    const sb = client(emu, emu.keys.anon);
    const anon = await sb.auth.signInAnonymously();
    expect(anon.error).toBeNull();
    const id = anon.data.user!.id;
    expect((await sb.auth.updateUser({ phone: uniquePhone() })).error).toBeNull();
    const token = (await sb.auth.getSession()).data.session!.access_token;
    const user = (await admin().getUserById(id)).data.user!;
    expect(user.is_anonymous).toBe(false);

    const res = await authFetch(emu, '/reauthenticate', { token });
    expect([res.status, await res.json()]).toEqual([
      400,
      { code: 'phone_provider_disabled', message: 'Unsupported phone provider' },
    ]);
    await emu.db.query('update auth.users set phone_confirmed_at = null where id = $1', [id]);
    const unconfirmed = await authFetch(emu, '/reauthenticate', { token });
    expect([unconfirmed.status, await unconfirmed.json()]).toEqual([
      422,
      { code: 'phone_not_confirmed', message: 'Please verify your phone first.' },
    ]);
  });

  it('a password sign-in by phone, a phone resend and a phone factor answer 4xx', async () => {
    const phone = uniquePhone();
    await admin().createUser({ phone, password: 'secret123', phone_confirm: true });
    const sb = client(emu, emu.keys.anon);
    const login = await sb.auth.signInWithPassword({ phone, password: 'secret123' });
    expect([login.error?.status, login.error?.code, login.error?.message]).toEqual([
      422,
      'phone_provider_disabled',
      'Phone logins are disabled',
    ]);
    const resend = await sb.auth.resend({ type: 'sms', phone });
    expect([resend.error?.status, resend.error?.code]).toEqual([400, 'phone_provider_disabled']);

    const email = uniqueEmail('factor');
    await admin().createUser({ email, password: 'secret123', email_confirm: true });
    await sb.auth.signInWithPassword({ email, password: 'secret123' });
    const factor = await sb.auth.mfa.enroll({ factorType: 'phone', phone: `+${phone}` });
    expect([factor.error?.status, factor.error?.code, factor.error?.message]).toEqual([
      422,
      'mfa_phone_enroll_not_enabled',
      'MFA enroll is disabled for Phone',
    ]);
  });
});

describe('with [auth.sms] enable_confirmations on', () => {
  let strict: RunningEmulator & { cleanupDir(): Promise<void> };
  beforeAll(async () => {
    strict = await startWithConfig(`${CONFIG}\n[auth.sms]\nenable_confirmations = true\n`);
  }, 120_000);
  afterAll(async () => {
    await strict?.stop();
    await strict?.cleanupDir();
  });

  it('a phone change would need an SMS code: the disabled provider’s 400, nothing changed', async () => {
    const email = uniqueEmail('strict-phone');
    await client(strict, strict.keys.secret).auth.admin.createUser({
      email,
      password: 'secret123',
      email_confirm: true,
    });
    const sb = client(strict, strict.keys.anon);
    await sb.auth.signInWithPassword({ email, password: 'secret123' });
    const { error } = await sb.auth.updateUser({ phone: uniquePhone() });
    expect([error?.status, error?.code, error?.message]).toEqual([
      400,
      'phone_provider_disabled',
      'Unsupported phone provider',
    ]);
    expect((await sb.auth.getUser()).data.user!.phone).toBe('');
    const settings = await (await authFetch(strict, '/settings')).json();
    expect(settings.phone_autoconfirm).toBe(false);
  });
});
