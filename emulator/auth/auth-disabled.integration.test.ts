// Features the CLI's default config leaves off answer GoTrue's own 4xx, never a 5xx supabase-js would retry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import {
  authFetch,
  CLI_DEFAULTS_CONFIG,
  client,
  startWithConfig,
  uniqueEmail,
} from './test-kit.js';

let emu: RunningEmulator & { cleanupDir(): Promise<void> };

beforeAll(async () => {
  emu = await startWithConfig(CLI_DEFAULTS_CONFIG);
}, 120_000);
afterAll(async () => {
  await emu?.stop();
  await emu?.cleanupDir();
});

const answer = async (res: Response) => [res.status, await res.json()];

describe('disabled auth features', () => {
  it('SAML: 404 saml_provider_disabled on /sso and /sso/saml/*', async () => {
    const { error } = await client(emu, emu.keys.anon).auth.signInWithSSO({
      domain: 'example.com',
    });
    expect([error?.status, error?.code, error?.message]).toEqual([
      404,
      'saml_provider_disabled',
      'SAML 2.0 is disabled',
    ]);
    for (const [method, path] of [
      ['GET', '/sso/saml/metadata'],
      ['POST', '/sso/saml/acs'],
    ] as const) {
      const body = method === 'POST' ? {} : undefined;
      expect(await answer(await authFetch(emu, path, { method, body }))).toEqual([
        404,
        { code: 'saml_provider_disabled', message: 'SAML 2.0 is disabled' },
      ]);
    }
  });

  it('Web3: 422 web3_provider_disabled', async () => {
    const res = await authFetch(emu, '/token?grant_type=web3', {
      method: 'POST',
      body: { chain: 'ethereum', message: 'm', signature: 's' },
    });
    expect(await answer(res)).toEqual([
      422,
      { code: 'web3_provider_disabled', message: 'Web3 provider is disabled' },
    ]);
  });

  it('manual linking: a session is checked first, then 404 manual_linking_disabled', async () => {
    // Without a user's token the gateway's anon key is the bearer: refused as for GET /user.
    const [status, body] = await answer(
      await authFetch(emu, '/user/identities/authorize?provider=github'),
    );
    expect([status, body.code]).toEqual([403, 'bad_jwt']);
    const sb = client(emu, emu.keys.anon);
    const { data, error } = await sb.auth.signUp({
      email: uniqueEmail('linking'),
      password: 'secret123',
    });
    expect(error).toBeNull();
    const token = data.session!.access_token;
    for (const [method, path] of [
      ['GET', '/user/identities/authorize?provider=github&skip_http_redirect=true'],
      ['DELETE', '/user/identities/00000000-0000-0000-0000-000000000000'],
    ] as const) {
      expect(await answer(await authFetch(emu, path, { method, token }))).toEqual([
        404,
        { code: 'manual_linking_disabled', message: 'Manual linking is disabled' },
      ]);
    }
  });

  it('passkeys: 404 passkey_disabled on every /passkeys path, before any session check', async () => {
    for (const [method, path] of [
      ['POST', '/passkeys/authentication/options'],
      ['POST', '/passkeys/registration/verify'],
      ['GET', '/passkeys'],
      ['DELETE', '/passkeys/00000000-0000-0000-0000-000000000000'],
    ] as const) {
      const body = method === 'POST' ? {} : undefined;
      expect(await answer(await authFetch(emu, path, { method, body }))).toEqual([
        404,
        { code: 'passkey_disabled', message: 'Passkeys are disabled' },
      ]);
    }
  });

  it('OAuth 2.1 server: 404 feature_disabled, admin routes after the admin check', async () => {
    const off = [404, { code: 'feature_disabled', message: 'OAuth server is disabled' }];
    for (const [method, path] of [
      ['GET', '/.well-known/oauth-authorization-server'],
      ['GET', '/oauth/authorize?client_id=x&response_type=code'],
      ['POST', '/oauth/token'],
    ] as const) {
      const body = method === 'POST' ? {} : undefined;
      expect(await answer(await authFetch(emu, path, { method, body }))).toEqual(off);
    }
    // The anon key is no admin: refused as every /admin route refuses it.
    const [status] = await answer(await authFetch(emu, '/admin/oauth/clients'));
    expect([401, 403]).toContain(status);
    const admin = { apikey: emu.keys.secret };
    expect(await answer(await authFetch(emu, '/admin/oauth/clients', admin))).toEqual(off);
    expect(
      await answer(
        await authFetch(emu, '/admin/custom-providers', { ...admin, method: 'POST', body: {} }),
      ),
    ).toEqual([404, { code: 'feature_disabled', message: 'Custom OAuth providers are disabled' }]);
  });

  it('phone: 400 phone_provider_disabled "Unsupported phone provider" for an SMS code', async () => {
    const { error } = await client(emu, emu.keys.anon).auth.signInWithOtp({
      phone: '+15555550100',
    });
    expect([error?.status, error?.code, error?.message]).toEqual([
      400,
      'phone_provider_disabled',
      'Unsupported phone provider',
    ]);
  });
});

describe('secure_password_change off (the CLI default)', () => {
  it('changes a password without reauthentication, ignoring a nonce', async () => {
    const email = uniqueEmail('nonce-off');
    const c = client(emu, emu.keys.anon);
    const { data } = await c.auth.signUp({ email, password: 'first-pass' });
    await emu.db.query(
      `update auth.sessions set created_at = now() - interval '25 hours' where user_id = $1`,
      [data.user!.id],
    );
    expect(
      (await c.auth.updateUser({ password: 'second-pass', nonce: '123456' })).error,
    ).toBeNull();
    expect((await c.auth.updateUser({ password: 'third-pass' })).error).toBeNull();
  });
});
