// `[auth] signing_keys_path`: tokens signed with the first key and its kid, the JWKS, and every service accepting them.
import { fileURLToPath } from 'node:url';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import {
  SignJWT,
  createLocalJWKSet,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  type JWK,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { signJwt } from '../keys.js';
import { startTestProject } from '../test-project.js';

const FUNCTIONS = fileURLToPath(new URL('../functions/fixtures/', import.meta.url));

async function privateJwk(alg: 'ES256' | 'RS256', kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg, use: 'sig', key_ops: ['sign', 'verify'] };
}

let emu: RunningEmulator;
let stop: () => Promise<void>;
let keys: JWK[];
let user: SupabaseClient;
let accessToken: string;
let userId: string;

beforeAll(async () => {
  // As `supabase gen signing-key` writes them: the first is the current key.
  keys = [await privateJwk('ES256', 'current-es'), await privateJwk('RS256', 'older-rs')];
  const started = await startTestProject(
    'signing-keys',
    {
      'config.toml': '[auth]\nsigning_keys_path = "./signing_keys.json"\n',
      'signing_keys.json': JSON.stringify(keys),
      'migrations/20260101000000_notes.sql': `
        create table public.notes (id serial primary key, owner uuid not null default auth.uid(), body text);
        alter table public.notes enable row level security;
        create policy own on public.notes to authenticated
          using (owner = auth.uid()) with check (owner = auth.uid());
        grant select, insert on public.notes to authenticated;
        grant usage on sequence public.notes_id_seq to authenticated;
        insert into storage.buckets (id, name) values ('inbox', 'inbox');
        create policy upload on storage.objects for insert to authenticated
          with check (bucket_id = 'inbox' and owner_id = auth.uid()::text);
        create policy members on realtime.messages for select to authenticated using (true);
      `,
    },
    { functionsDir: FUNCTIONS },
  );
  emu = started.emu;
  stop = started.stop;
  user = createClient(emu.url, emu.keys.publishable, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const { data, error } = await user.auth.signUp({
    email: 'keys@example.com',
    password: 'pw-123456',
  });
  expect(error).toBeNull();
  accessToken = data.session!.access_token;
  userId = data.user!.id;
}, 120_000);
afterAll(() => stop?.());

describe('asymmetric signing keys', () => {
  it('signs access tokens with the first key and its kid, verifiable with the JWKS', async () => {
    expect(decodeProtectedHeader(accessToken)).toEqual({
      alg: 'ES256',
      kid: 'current-es',
      typ: 'JWT',
    });
    const res = await fetch(`${emu.url}/auth/v1/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    const jwks = (await res.json()) as { keys: JWK[] };
    expect(jwks.keys.map((k) => [k.kid, k.alg, k.kty])).toEqual([
      ['current-es', 'ES256', 'EC'],
      ['older-rs', 'RS256', 'RSA'],
    ]);
    for (const key of jwks.keys) {
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi'])
        expect(key).not.toHaveProperty(secret);
    }
    const { payload } = await jwtVerify(accessToken, createLocalJWKSet(jwks));
    expect(payload).toMatchObject({ sub: userId, role: 'authenticated' });
  });

  it('is accepted by REST, which reads its claims', async () => {
    const insert = await user.from('notes').insert({ body: 'hi' }).select('owner, body').single();
    expect(insert.error).toBeNull();
    expect(insert.data).toEqual({ owner: userId, body: 'hi' });
    expect((await user.auth.getUser()).data.user?.id).toBe(userId);
  });

  it('accepts a token from the older key and refuses one from an unknown key', async () => {
    const claims = { sub: userId, role: 'authenticated', aud: 'authenticated' };
    const sign = (key: JWK | CryptoKey, alg: string, kid: string) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg, kid, typ: 'JWT' })
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(key as CryptoKey);
    const { importJWK } = await import('jose');
    const older = await sign(
      (await importJWK({ ...keys[1]!, key_ops: ['sign'] }, 'RS256')) as CryptoKey,
      'RS256',
      'older-rs',
    );
    const stranger = await sign((await generateKeyPair('ES256')).privateKey, 'ES256', 'current-es');
    const rest = (token: string) =>
      fetch(`${emu.url}/rest/v1/notes?select=body`, {
        headers: { apikey: emu.keys.publishable, Authorization: `Bearer ${token}` },
      });
    const ok = await rest(older);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual([{ body: 'hi' }]);
    expect((await rest(stranger)).status).toBe(401);
    // HS256 tokens signed with the JWT secret keep working beside the asymmetric ones.
    const hs = await rest(await signJwt({ ...claims, exp: Math.floor(Date.now() / 1000) + 60 }));
    expect(await hs.json()).toEqual([{ body: 'hi' }]);
  });

  it('is accepted by Storage as the uploading user', async () => {
    const up = await user.storage.from('inbox').upload('a.txt', 'hello');
    expect(up.error).toBeNull();
    const { rows } = await emu.db.query<{ owner_id: string }>(
      `select owner_id from storage.objects where bucket_id = 'inbox' and name = 'a.txt'`,
    );
    expect(rows[0]!.owner_id).toBe(userId);
  });

  it('is accepted by Realtime on a channel only authenticated users may read', async () => {
    await user.realtime.setAuth(accessToken);
    const status = await new Promise<string>((resolve) => {
      user
        .channel('members', { config: { private: true } })
        .subscribe((s, err) => resolve(err ? `${s}: ${err.message}` : s));
    });
    expect(status).toBe('SUBSCRIBED');
    await user.removeAllChannels();
  });

  it('is accepted by Functions that verify the JWT', async () => {
    const call = (token: string) =>
      fetch(`${emu.url}/functions/v1/echo`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: '{}',
      });
    expect((await call(accessToken)).status).toBe(200);
    expect((await call(`${accessToken.slice(0, -4)}AAAA`)).status).toBe(401);
  });
});
