// Who may call the admin functions (SPEC §6, §7, §8), through the real gateway: they run with
// verify_jwt off and check the caller themselves, so a missing, broken or expired login, or a
// project key where a session belongs, gets the catalogue's 401 with CORS — never the gateway's
// bare `{"code":401,"message":"Invalid JWT"}`, which a browser reports as a network error.
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { signJwt } from '../../emulator/keys';
import { callFunction, signedInClient, startFunctionsEmulator } from './kit';

let emu: RunningEmulator;
let expired: string;
let forgedService: string;
let mintedService: string;
let adminToken: string;

beforeAll(async () => {
  emu = await startFunctionsEmulator();
  const admin = await signedInClient(emu, 'admin');
  const session = (await admin.auth.getSession()).data.session!;
  adminToken = session.access_token;
  const now = Math.floor(Date.now() / 1000);
  // The admin's own session token as Auth issued it, only an hour older: signature and user fine.
  const claims = JSON.parse(Buffer.from(adminToken.split('.')[1]!, 'base64url').toString());
  expired = await signJwt({ ...claims, iat: now - 7200, exp: now - 3600 });
  // A service-role claim signed with a key that is not the project's.
  forgedService = await new SignJWT({ role: 'service_role', iss: 'supabase-demo' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode('not-the-project-secret-not-the-project-secret'));
  // A genuine service-role JWT that is not the service-role key itself.
  mintedService = await signJwt({ role: 'service_role', iss: 'postbox-test', exp: now + 3600 });
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

const FUNCTIONS: Record<string, Record<string, unknown>> = {
  'send-campaign': { campaign_id: randomUUID(), action: 'send' },
  'export-subscribers': {},
  'import-subscribers': { import_id: randomUUID() },
  'invite-member': { email: 'someone@example.com', role: 'viewer' },
  'process-queue': { budget_ms: 1000 },
};

function expectUnauthenticated(res: Awaited<ReturnType<typeof callFunction>>, what: string): void {
  expect([what, res.status, res.body]).toEqual([
    what,
    401,
    { error: { code: 'unauthenticated', message: 'Sign in to continue.' } },
  ]);
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
}

describe.each(Object.keys(FUNCTIONS))('%s', (name) => {
  const body = FUNCTIONS[name]!;

  it('answers a call without a usable login with the catalogue 401 and CORS', async () => {
    const cases: Record<string, Record<string, string>> = {
      'no Authorization header': {},
      'a garbage token': { Authorization: 'Bearer not-a-jwt' },
      'a session token with a forged signature': {
        Authorization: `Bearer ${adminToken.split('.').slice(0, 2).join('.')}.${forgedService.split('.')[2]}`,
      },
      'an expired session': { Authorization: `Bearer ${expired}` },
      'the publishable key': { Authorization: `Bearer ${emu.keys.publishable}` },
      'the anon key': { Authorization: `Bearer ${emu.keys.anon}` },
    };
    for (const [what, headers] of Object.entries(cases)) {
      expectUnauthenticated(await callFunction(emu, name, { body, headers }), what);
    }
  });

  it('answers its preflight with CORS', async () => {
    const res = await callFunction(emu, name, { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('the service role', () => {
  it('is never taken from an unverified role claim', async () => {
    for (const name of ['process-queue', 'import-subscribers', 'send-campaign']) {
      const res = await callFunction(emu, name, { body: FUNCTIONS[name], bearer: forgedService });
      expectUnauthenticated(res, `${name} with a forged service-role JWT`);
    }
  });

  it('runs process-queue with the service-role key, the secret key or a signed service-role JWT', async () => {
    for (const bearer of [emu.keys.serviceRole, emu.keys.secret, mintedService]) {
      const res = await callFunction(emu, 'process-queue', { body: { budget_ms: 500 }, bearer });
      expect(res.status).toBe(200);
    }
  });

  it('refuses a signed-in member process-queue with 403', async () => {
    const res = await callFunction(emu, 'process-queue', { body: {}, bearer: adminToken });
    expect([res.status, res.body.error.code]).toEqual([403, 'forbidden']);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('lets the service role continue an import (an unknown import is 404, past the check)', async () => {
    const res = await callFunction(emu, 'import-subscribers', {
      body: { import_id: randomUUID() },
      bearer: emu.keys.serviceRole,
    });
    expect([res.status, res.body.error.code]).toEqual([404, 'not_found']);
  });
});
