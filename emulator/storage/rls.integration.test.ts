// Storage authorisation is Postgres's own RLS on storage.objects, evaluated as the caller (contract §3.3).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { client, migrate, startTestEmulator, userToken } from './testing.js';

let emu: RunningEmulator;
const alice = randomUUID();
const bob = randomUUID();
let asAlice: ReturnType<typeof client>['storage'];
let asBob: ReturnType<typeof client>['storage'];
let admin: ReturnType<typeof client>['storage'];

const RLS_DENIED = {
  status: 400,
  statusCode: '403',
  message: 'new row violates row-level security policy',
};

beforeAll(async () => {
  emu = await startTestEmulator();
  // As a project migration would write them: buckets as rows, policies on storage.objects.
  await migrate(
    emu,
    `
    insert into storage.buckets (id, name) values ('avatars', 'avatars'), ('inbox', 'inbox'),
      ('shared', 'shared');
    create policy "users upload into their own folder" on storage.objects for insert
      to authenticated
      with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text));
    create policy "users read their own folder" on storage.objects for select to authenticated
      using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text));
    create policy "users update their own folder" on storage.objects for update to authenticated
      using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text));
    create policy "users delete their own folder" on storage.objects for delete to authenticated
      using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text));
    create policy "anyone signed in may drop files in the inbox" on storage.objects for insert
      to authenticated with check (bucket_id = 'inbox');
    create policy "anyone signed in may read shared" on storage.objects for select
      to authenticated using (bucket_id = 'shared');
    `,
  );
  asAlice = client(emu, emu.keys.publishable, await userToken(alice)).storage;
  asBob = client(emu, emu.keys.anon, await userToken(bob)).storage;
  admin = client(emu, emu.keys.secret).storage;
});
afterAll(() => emu?.stop());

describe('storage RLS', () => {
  it('lets a user upload under their own folder only, owned by them', async () => {
    const ok = await asAlice.from('avatars').upload(`${alice}/me.txt`, 'alice');
    expect(ok.error).toBeNull();
    const elsewhere = await asAlice.from('avatars').upload(`${bob}/me.txt`, 'not alice');
    expect(elsewhere.error).toMatchObject(RLS_DENIED);
    const raw = await fetch(`${emu.url}/storage/v1/object/avatars/${bob}/raw.txt`, {
      method: 'POST',
      headers: { apikey: emu.keys.anon, Authorization: `Bearer ${await userToken(alice)}` },
      body: 'raw',
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({
      statusCode: '403',
      code: 'AccessDenied',
      error: 'Unauthorized',
      message: 'new row violates row-level security policy',
    });
    const { rows } = await emu.db.query<{ owner: string; owner_id: string }>(
      'select owner::text, owner_id from storage.objects where name = $1',
      [`${alice}/me.txt`],
    );
    expect(rows[0]).toEqual({ owner: alice, owner_id: alice });
  });

  it.each(['anon', 'publishable'] as const)('denies the %s key', async (key) => {
    const anon = client(emu, emu.keys[key]).storage;
    const res = await anon.from('avatars').upload(`${alice}/anon.txt`, 'x');
    expect(res.error).toMatchObject(RLS_DENIED);
    expect((await anon.from('avatars').download(`${alice}/me.txt`)).error).toMatchObject({
      status: 400,
    });
    expect((await anon.from('avatars').list(alice)).data).toEqual([]);
  });

  it('hides other users objects from download, list and signing', async () => {
    await asBob.from('avatars').upload(`${bob}/bob.txt`, 'bob');
    expect(await (await asBob.from('avatars').download(`${bob}/bob.txt`)).data!.text()).toBe('bob');
    const stolen = await asAlice.from('avatars').download(`${bob}/bob.txt`);
    expect(stolen.data).toBeNull();
    const res = await fetch(`${emu.url}/storage/v1/object/avatars/${bob}/bob.txt`, {
      headers: { apikey: emu.keys.anon, Authorization: `Bearer ${await userToken(alice)}` },
    });
    expect(await res.json()).toMatchObject({ statusCode: '404', code: 'NoSuchKey' });
    expect((await asAlice.from('avatars').list(bob)).data).toEqual([]);
    expect(
      (await asAlice.from('avatars').createSignedUrl(`${bob}/bob.txt`, 60)).error,
    ).toMatchObject({
      statusCode: '404',
    });
    // The service role bypasses RLS.
    expect((await admin.from('avatars').list(bob)).data!.map((o) => o.name)).toEqual(['bob.txt']);
  });

  it('needs SELECT, INSERT and UPDATE for an upsert', async () => {
    // inbox: INSERT only. A plain upload works; an upsert needs SELECT for its RETURNING.
    expect((await asAlice.from('inbox').upload('drop.txt', 'one')).error).toBeNull();
    const upsert = await asAlice.from('inbox').upload('drop2.txt', 'two', { upsert: true });
    expect(upsert.error).toMatchObject(RLS_DENIED);
    // avatars has all three for the user's folder.
    const own = await asAlice.from('avatars').upload(`${alice}/me.txt`, 'again', { upsert: true });
    expect(own.error).toBeNull();
    expect(await (await asAlice.from('avatars').download(`${alice}/me.txt`)).data!.text()).toBe(
      'again',
    );
  });

  it('removes only what the caller can see and delete, silently skipping the rest', async () => {
    await asAlice.from('avatars').upload(`${alice}/gone.txt`, 'bye');
    const { data, error } = await asAlice
      .from('avatars')
      .remove([`${alice}/gone.txt`, `${bob}/bob.txt`]);
    expect(error).toBeNull();
    expect(data!.map((o) => o.name)).toEqual([`${alice}/gone.txt`]);
    expect((await admin.from('avatars').exists(`${bob}/bob.txt`)).data).toBe(true);
    // shared: SELECT but no DELETE policy → nothing is removed.
    await admin.from('shared').upload('keep.txt', 'keep');
    expect((await asAlice.from('shared').remove(['keep.txt'])).data).toEqual([]);
    expect((await admin.from('shared').exists('keep.txt')).data).toBe(true);
  });

  it('checks the UPDATE policy when moving and INSERT when copying', async () => {
    await asAlice.from('avatars').upload(`${alice}/mv.txt`, 'mv');
    const away = await asAlice.from('avatars').move(`${alice}/mv.txt`, `${bob}/mv.txt`);
    expect(away.error).toMatchObject(RLS_DENIED);
    const within = await asAlice.from('avatars').move(`${alice}/mv.txt`, `${alice}/moved.txt`);
    expect(within.error).toBeNull();
    const copyAway = await asAlice.from('avatars').copy(`${alice}/moved.txt`, `${bob}/copy.txt`);
    expect(copyAway.error).toMatchObject(RLS_DENIED);
    const copy = await asAlice.from('avatars').copy(`${alice}/moved.txt`, `${alice}/copy.txt`);
    expect(copy.error).toBeNull();
  });

  it('rejects an expired or forged user token', async () => {
    const expired = client(emu, emu.keys.anon, await userToken(alice, -10)).storage;
    const res = await expired.from('avatars').upload(`${alice}/late.txt`, 'late');
    expect(res.error).toMatchObject({ status: 400, statusCode: '403', message: 'jwt expired' });
  });
});
