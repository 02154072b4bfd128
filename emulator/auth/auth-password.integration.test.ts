// Auth with the CLI's local defaults (autoconfirm): signUp, passwords, refresh rotation, /user, logout, errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import {
  authFetch,
  CLI_DEFAULTS_CONFIG,
  client,
  codeIn,
  decodeJwt,
  mailFor,
  startWithConfig,
  uniqueEmail,
} from './test-kit.js';

let emu: RunningEmulator & { cleanupDir(): Promise<void> };

beforeAll(async () => {
  // The CLI's local defaults (sign-ups open), not this repository's config, which closes them.
  emu = await startWithConfig(CLI_DEFAULTS_CONFIG);
});
afterAll(async () => {
  await emu?.stop();
  await emu?.cleanupDir();
});

const keyStyles = [
  ['legacy anon JWT', () => emu.keys.anon],
  ['publishable key', () => emu.keys.publishable],
] as const;

describe.each(keyStyles)('with the %s', (_name, key) => {
  it('signUp returns a session with the contract claims and real auth rows', async () => {
    const sb = client(emu, key());
    const email = uniqueEmail('signup');
    const { data, error } = await sb.auth.signUp({
      email,
      password: 'secret123',
      options: { data: { full_name: 'Ada' } },
    });
    expect(error).toBeNull();
    const session = data.session!;
    expect(session.token_type).toBe('bearer');
    expect(session.expires_in).toBe(3600);
    expect(session.refresh_token).toMatch(/^[a-z0-9]{12}$/);
    expect(data.user!.email).toBe(email);
    // User.Confirm (autoconfirm) records email_verified in the metadata, as upstream.
    expect(data.user!.user_metadata).toEqual({ full_name: 'Ada', email_verified: true });
    expect(data.user!.app_metadata).toEqual({ provider: 'email', providers: ['email'] });
    expect(data.user!.identities).toHaveLength(1);
    expect(data.user!.identities![0]!.provider).toBe('email');
    expect(data.user!.identities![0]!.identity_data).toEqual({
      sub: data.user!.id,
      email,
      email_verified: false,
      phone_verified: false,
      full_name: 'Ada',
    });
    expect(data.user!.email_confirmed_at).toBeTruthy();

    const claims = decodeJwt(session.access_token);
    expect(Object.keys(claims).sort()).toEqual(
      [
        'aal',
        'amr',
        'app_metadata',
        'aud',
        'email',
        'exp',
        'iat',
        'is_anonymous',
        'iss',
        'phone',
        'role',
        'session_id',
        'sub',
        'user_metadata',
      ].sort(),
    );
    expect(claims).toMatchObject({
      iss: `${emu.url}/auth/v1`,
      sub: data.user!.id,
      aud: 'authenticated',
      email,
      phone: '',
      role: 'authenticated',
      aal: 'aal1',
      is_anonymous: false,
      user_metadata: { full_name: 'Ada', email_verified: true },
      app_metadata: { provider: 'email', providers: ['email'] },
    });
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    expect((claims.amr as Array<{ method: string }>)[0]!.method).toBe('password');
    expect(session.expires_at).toBe(claims.exp);
  });

  it('signInWithPassword, getUser and updateUser', async () => {
    const sb = client(emu, key());
    const email = uniqueEmail('login');
    await sb.auth.signUp({ email, password: 'secret123' });
    await sb.auth.signOut();
    const { data, error } = await sb.auth.signInWithPassword({ email, password: 'secret123' });
    expect(error).toBeNull();
    expect(data.session!.user.last_sign_in_at).toBeTruthy();

    const got = await sb.auth.getUser();
    expect(got.error).toBeNull();
    expect(got.data.user!.id).toBe(data.user!.id);

    const updated = await sb.auth.updateUser({ data: { plan: 'pro' }, password: 'newsecret1' });
    expect(updated.error).toBeNull();
    expect(updated.data.user!.user_metadata).toEqual({ plan: 'pro', email_verified: true });
    const again = await client(emu, key()).auth.signInWithPassword({
      email,
      password: 'newsecret1',
    });
    expect(again.error).toBeNull();

    const same = await sb.auth.updateUser({ password: 'newsecret1' });
    expect(same.error!.status).toBe(422);
    expect(same.error!.code).toBe('same_password');
  });
});

describe('errors', () => {
  it('wrong password → 400 invalid_credentials in the 2024-01-01 shape', async () => {
    const email = uniqueEmail('wrong');
    await client(emu, emu.keys.anon).auth.signUp({ email, password: 'secret123' });
    const res = await authFetch(emu, '/token?grant_type=password', {
      method: 'POST',
      body: { email, password: 'nope-nope' },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(res.headers.get('x-sb-error-code')).toBe('invalid_credentials');
    expect(await res.json()).toEqual({
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    });
    const viaClient = await client(emu, emu.keys.anon).auth.signInWithPassword({
      email,
      password: 'nope-nope',
    });
    expect(viaClient.error!.status).toBe(400);
    expect(viaClient.error!.code).toBe('invalid_credentials');
  });

  it('without the version header the legacy shape comes back', async () => {
    const res = await authFetch(emu, '/token?grant_type=password', {
      method: 'POST',
      body: { email: uniqueEmail('nobody'), password: 'whatever1' },
      version: false,
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-supabase-api-version')).toBeNull();
    expect(await res.json()).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    });
  });

  it('weak password → 422 weak_password with reasons', async () => {
    const res = await authFetch(emu, '/signup', {
      method: 'POST',
      body: { email: uniqueEmail('weak'), password: '123' },
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      code: 'weak_password',
      message: 'Password should be at least 6 characters.',
      weak_password: { reasons: ['length'] },
    });
    const viaClient = await client(emu, emu.keys.publishable).auth.signUp({
      email: uniqueEmail('weak'),
      password: '123',
    });
    expect(viaClient.error!.status).toBe(422);
    expect(viaClient.error!.code).toBe('weak_password');
  });

  it('existing email with autoconfirm → 422 user_already_exists', async () => {
    const email = uniqueEmail('dup');
    const sb = client(emu, emu.keys.anon);
    await sb.auth.signUp({ email, password: 'secret123' });
    const again = await client(emu, emu.keys.anon).auth.signUp({ email, password: 'secret123' });
    expect(again.error!.status).toBe(422);
    expect(again.error!.code).toBe('user_already_exists');
  });

  it('bad JWT → 403 bad_jwt; anon key on /user → 403 bad_jwt (no sub)', async () => {
    const bad = await authFetch(emu, '/user', { token: 'a.b.c' });
    expect(bad.status).toBe(403);
    expect(((await bad.json()) as { code: string }).code).toBe('bad_jwt');
    const anon = await authFetch(emu, '/user');
    expect(anon.status).toBe(403);
    expect(((await anon.json()) as { code: string }).code).toBe('bad_jwt');
  });

  it('anonymous sign-in is off by default → 422 anonymous_provider_disabled', async () => {
    const { error } = await client(emu, emu.keys.anon).auth.signInAnonymously();
    expect(error!.status).toBe(422);
    expect(error!.code).toBe('anonymous_provider_disabled');
  });

  it('unknown grant type → 400 invalid_credentials; SAML off → 404 (auth-disabled tests)', async () => {
    const grant = await authFetch(emu, '/token?grant_type=nope', { method: 'POST', body: {} });
    expect(grant.status).toBe(400);
    const sso = await authFetch(emu, '/sso', { method: 'POST', body: {} });
    expect(sso.status).toBe(404);
    expect(((await sso.json()) as { message: string }).message).toBe('SAML 2.0 is disabled');
  });

  it('a garbage X-Forwarded-For does not break sign-in', async () => {
    const email = uniqueEmail('xff');
    await client(emu, emu.keys.anon).auth.signUp({ email, password: 'secret123' });
    const res = await fetch(`${emu.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: {
        apikey: emu.keys.anon,
        'Content-Type': 'application/json',
        'X-Forwarded-For': 'not-an-ip, 10.0.0.1',
      },
      body: JSON.stringify({ email, password: 'secret123' }),
    });
    expect(res.status).toBe(200);
  });

  it('settings and health answer', async () => {
    const settings = await authFetch(emu, '/settings');
    expect(await settings.json()).toMatchObject({
      external: { email: true, phone: false, anonymous_users: false, github: false },
      disable_signup: false,
      mailer_autoconfirm: true,
    });
    const health = await authFetch(emu, '/health');
    expect(health.status).toBe(200);
    expect(((await health.json()) as { name: string }).name).toBe('GoTrue');
  });
});

describe('one-time passwords with autoconfirm', () => {
  it('a new address is signed up confirmed and gets a magic link with a code', async () => {
    const email = uniqueEmail('otp-auto');
    const sb = client(emu, emu.keys.anon);
    expect((await sb.auth.signInWithOtp({ email })).error).toBeNull();
    const mail = await mailFor(emu, email);
    expect(mail.subject).toBe('Your Magic Link');
    const { data, error } = await sb.auth.verifyOtp({ email, token: codeIn(mail), type: 'email' });
    expect(error).toBeNull();
    expect(data.user!.email).toBe(email);
  });

  it('GET /verify without a type or token is a 400 JSON error, not a redirect', async () => {
    const noType = await authFetch(emu, '/verify?token=abc');
    expect(noType.status).toBe(400);
    expect(await noType.json()).toEqual({
      code: 'validation_failed',
      message: 'Verify requires a verification type',
    });
    const noToken = await authFetch(emu, '/verify?type=signup');
    expect(noToken.status).toBe(400);
  });
});

describe('sessions', () => {
  it('refresh rotates; the previous token still answers with the active one; session gone → 403', async () => {
    const sb = client(emu, emu.keys.anon);
    const email = uniqueEmail('refresh');
    const first = (await sb.auth.signUp({ email, password: 'secret123' })).data.session!;
    const second = await sb.auth.refreshSession({ refresh_token: first.refresh_token });
    expect(second.error).toBeNull();
    const rotated = second.data.session!.refresh_token;
    expect(rotated).not.toBe(first.refresh_token);
    expect(decodeJwt(second.data.session!.access_token).session_id).toBe(
      decodeJwt(first.access_token).session_id,
    );

    // Re-using the parent of the active token (the client lost the response) is allowed.
    const reuse = await authFetch(emu, '/token?grant_type=refresh_token', {
      method: 'POST',
      body: { refresh_token: first.refresh_token },
    });
    expect(reuse.status).toBe(200);
    expect(((await reuse.json()) as { refresh_token: string }).refresh_token).toBe(rotated);

    const unknown = await authFetch(emu, '/token?grant_type=refresh_token', {
      method: 'POST',
      body: { refresh_token: 'notarealtokn' },
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { code: string }).code).toBe('refresh_token_not_found');

    // signOut (local) deletes the session: its access token now fails with session_not_found.
    const token = second.data.session!.access_token;
    await authFetch(emu, '/logout?scope=local', { method: 'POST', token });
    const after = await authFetch(emu, '/user', { token });
    expect(after.status).toBe(403);
    expect(((await after.json()) as { code: string }).code).toBe('session_not_found');
  });

  it('signOut scopes: others keeps this session, global ends all', async () => {
    const email = uniqueEmail('scopes');
    const a = client(emu, emu.keys.anon);
    const b = client(emu, emu.keys.anon);
    const c = client(emu, emu.keys.anon);
    await a.auth.signUp({ email, password: 'secret123' });
    await b.auth.signInWithPassword({ email, password: 'secret123' });
    await c.auth.signInWithPassword({ email, password: 'secret123' });
    const tokenOf = async (x: typeof a) => (await x.auth.getSession()).data.session!.access_token;
    const [ta, tb, tc] = [await tokenOf(a), await tokenOf(b), await tokenOf(c)];

    const others = await authFetch(emu, '/logout?scope=others', { method: 'POST', token: ta });
    expect(others.status).toBe(204);
    expect((await authFetch(emu, '/user', { token: ta })).status).toBe(200);
    expect((await authFetch(emu, '/user', { token: tb })).status).toBe(403);

    await a.auth.signOut({ scope: 'global' });
    expect((await authFetch(emu, '/user', { token: ta })).status).toBe(403);
    expect((await authFetch(emu, '/user', { token: tc })).status).toBe(403);
  });
});
