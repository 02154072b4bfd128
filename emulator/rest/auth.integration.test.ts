// REST conformance, callers: JWT errors, RLS with anon / a user / service_role under both key styles, grants.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRestFixture, userToken, type RestFixture } from './test-fixtures.js';

let f: RestFixture;
const ALICE = '11111111-1111-4111-8111-111111111111';
const BOB = '22222222-2222-4222-8222-222222222222';
let aliceToken: string;
let bobToken: string;

beforeAll(async () => {
  f = await startRestFixture(`
    insert into public.todos (owner, task) values
      ('${ALICE}', 'alice 1'), ('${ALICE}', 'alice 2'), ('${BOB}', 'bob 1');
    insert into public.secrets values (1, 'hidden');
  `);
  aliceToken = await userToken(ALICE);
  bobToken = await userToken(BOB);
}, 180_000);
afterAll(() => f?.emu.stop());

function client(key: string, accessToken?: string): SupabaseClient {
  return createClient(f.emu.url, key, {
    auth: { persistSession: false },
    global: accessToken ? { headers: { Authorization: `Bearer ${accessToken}` } } : {},
  });
}

const KEY_STYLES = [
  ['legacy JWT keys', () => f.emu.keys.anon, () => f.emu.keys.serviceRole],
  ['sb_publishable_/sb_secret_ keys', () => f.emu.keys.publishable, () => f.emu.keys.secret],
] as const;

describe.each(KEY_STYLES)('RLS with %s', (_name, anonKey, serviceKey) => {
  it('anon sees no todos and cannot insert one (401 42501)', async () => {
    const anon = client(anonKey());
    const { data } = await anon.from('todos').select('task');
    expect(data).toEqual([]);
    const { error, status } = await anon.from('todos').insert({ task: 'sneaky' });
    expect(status).toBe(401);
    expect(error).toMatchObject({
      code: '42501',
      message: 'new row violates row-level security policy for table "todos"',
    });
  });

  it('a user sees and changes only their own rows', async () => {
    const alice = client(anonKey(), aliceToken);
    const { data } = await alice.from('todos').select('task').order('id');
    expect(data).toEqual([{ task: 'alice 1' }, { task: 'alice 2' }]);
    const { data: added, status } = await alice
      .from('todos')
      .insert({ task: 'alice 3' })
      .select('owner, task')
      .single();
    expect(status).toBe(201);
    expect(added).toEqual({ owner: ALICE, task: 'alice 3' });
    await alice.from('todos').delete().eq('task', 'alice 3');

    const bob = client(anonKey(), bobToken);
    const { data: touched } = await bob
      .from('todos')
      .update({ done: true })
      .eq('task', 'alice 1')
      .select();
    expect(touched).toEqual([]);
    const { error, status: forbidden } = await bob
      .from('todos')
      .insert({ owner: ALICE, task: 'for alice' });
    expect(forbidden).toBe(403);
    expect(error?.code).toBe('42501');
  });

  it('service_role bypasses RLS and reads tables without API grants', async () => {
    const service = client(serviceKey());
    const { data } = await service.from('todos').select('task').order('id');
    expect(data?.map((r) => r.task)).toEqual(['alice 1', 'alice 2', 'bob 1']);
    const { data: secrets } = await service.from('secrets').select('value');
    expect(secrets).toEqual([{ value: 'hidden' }]);
  });

  it('a missing GRANT is 401 for anon and 403 for a user', async () => {
    const { error, status } = await client(anonKey()).from('secrets').select();
    expect([status, error?.code, error?.message]).toEqual([
      401,
      '42501',
      'permission denied for table secrets',
    ]);
    const { status: userStatus } = await client(anonKey(), aliceToken).from('secrets').select();
    expect(userStatus).toBe(403);
  });
});

describe('request context', () => {
  it('sets role, claims, method, path and headers for SQL', async () => {
    const { data } = await client(f.emu.keys.publishable, aliceToken).rpc('whoami');
    expect(data).toEqual({
      role: 'authenticated',
      sub: ALICE,
      method: 'POST',
      path: '/rpc/whoami',
      apikey: f.emu.keys.publishable,
    });
    const { data: anon } = await client(f.emu.keys.anon).rpc('whoami', undefined, { get: true });
    expect(anon).toMatchObject({ role: 'anon', sub: null, method: 'GET' });
  });
});

describe('role settings', () => {
  it("applies the impersonated role's statement_timeout, as PostgREST does", async () => {
    expect((await client(f.emu.keys.anon).rpc('timeout')).data).toBe('3s');
    expect((await client(f.emu.keys.anon, aliceToken).rpc('timeout')).data).toBe('8s');
    expect((await client(f.emu.keys.secret).rpc('timeout')).data).toBe('8s');
  });

  it("hoists a function's own statement_timeout into the request, as PostgREST 12.2+ does", async () => {
    // The computed field runs outside the function's SET scope, so it sees the transaction's value.
    const { data } = await client(f.emu.keys.anon)
      .rpc('books_given_time')
      .select('id,timeout_seen')
      .limit(1);
    expect(data).toEqual([{ id: 1, timeout_seen: '7s' }]);
    const { data: plain } = await client(f.emu.keys.anon)
      .from('books')
      .select('id,timeout_seen')
      .limit(1);
    expect(plain).toEqual([{ id: 1, timeout_seen: '3s' }]);
  });

  // A function-level SET alone would arm no timer; hoisted, the timeout fires (PGlite has no timers).
  it.skipIf(!process.env.DATABASE_URL)(
    'cancels a function that outlives its own statement_timeout',
    async () => {
      const { error, status } = await client(f.emu.keys.secret).rpc('sleep_past_own_timeout');
      expect(status).toBe(500);
      expect(error).toMatchObject({
        code: '57014',
        message: 'canceling statement due to statement timeout',
      });
    },
  );
});

describe('JWT errors', () => {
  const call = (token: string) =>
    f.rest('/books?select=id', { headers: { Authorization: `Bearer ${token}` } });

  it('answers 401 PGRST303 for an expired token', async () => {
    const res = await call(await userToken(ALICE, -60));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer error="invalid_token", error_description="JWT expired"',
    );
    expect(await res.json()).toEqual({
      code: 'PGRST303',
      message: 'JWT expired',
      details: null,
      hint: null,
    });
  });

  it('answers 401 PGRST303 for a token issued in the future or not yet valid (30 s skew)', async () => {
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT({ role: 'authenticated', sub: ALICE, ...claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(new TextEncoder().encode(f.emu.keys.jwtSecret));
    const now = Math.floor(Date.now() / 1000);
    for (const [claims, message] of [
      [{ iat: now + 120 }, 'JWT issued at future'],
      [{ nbf: now + 120 }, 'JWT not yet valid'],
    ] as const) {
      const res = await call(await sign(claims));
      expect([res.status, await res.json()]).toEqual([
        401,
        { code: 'PGRST303', message, details: null, hint: null },
      ]);
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer error="invalid_token", error_description="${message}"`,
      );
    }
    expect((await call(await sign({ iat: now + 10 }))).status).toBe(200);
    expect((await call(await sign({ nbf: now + 10 }))).status).toBe(200);
  });

  it('accepts a token up to 30 s past its exp, as PostgREST allows for clock skew', async () => {
    const sign = (exp: number) =>
      new SignJWT({ role: 'authenticated', sub: ALICE, exp })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(new TextEncoder().encode(f.emu.keys.jwtSecret));
    const now = Math.floor(Date.now() / 1000);
    expect((await call(await sign(now - 10))).status).toBe(200);
    const expired = await call(await sign(now - 120));
    expect([expired.status, (await expired.json()).message]).toEqual([401, 'JWT expired']);
  });

  it('answers 401 PGRST301 for a forged or undecodable token', async () => {
    const forged = await new SignJWT({ role: 'service_role' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode('not-the-secret-not-the-secret-not-the-secret'));
    for (const token of [forged, 'garbage']) {
      const res = await call(token);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(
        /^Bearer error="invalid_token", error_description=".+"$/,
      );
      expect((await res.json()).code).toBe('PGRST301');
    }
  });

  it('refuses roles the API may not switch to (PostgREST runs as authenticator)', async () => {
    const res = await call(
      await new SignJWT({ role: 'postgres' })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(new TextEncoder().encode(f.emu.keys.jwtSecret)),
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      code: '42501',
      message: 'permission denied to set role "postgres"',
    });
  });

  it('sends WWW-Authenticate: Bearer with a 401 for an anonymous caller lacking a privilege', async () => {
    const res = await f.rest('/secrets?select=id');
    expect([res.status, res.headers.get('www-authenticate'), (await res.json()).code]).toEqual([
      401,
      'Bearer',
      '42501',
    ]);
  });

  it('answers 401 for a role that does not exist', async () => {
    const res = await call(
      await new SignJWT({ role: 'nobody' })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(new TextEncoder().encode(f.emu.keys.jwtSecret)),
    );
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('22023');
  });
});
