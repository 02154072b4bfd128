// Signed download and upload URLs through supabase-js: they work without a session, then expire.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { client, startTestEmulator } from './testing.js';

let emu: RunningEmulator;
let storage: ReturnType<typeof client>['storage'];
beforeAll(async () => {
  emu = await startTestEmulator();
  storage = client(emu, emu.keys.secret).storage;
  await storage.createBucket('private', { public: false });
  await storage.from('private').upload('doc.txt', 'secret words');
  await storage.from('private').upload('other.txt', 'other words');
});
afterAll(() => emu?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('storage signed URLs', () => {
  it('signs a URL that works without auth, then expires', async () => {
    // exp = iat + 1 in whole seconds: sign just after a second boundary to get the full second.
    await sleep(1000 - (Date.now() % 1000) + 20);
    const { data, error } = await storage.from('private').createSignedUrl('doc.txt', 1);
    expect(error).toBeNull();
    expect(data!.signedUrl).toMatch(
      new RegExp(`^${emu.url}/storage/v1/object/sign/private/doc\\.txt\\?token=`),
    );
    const res = await fetch(data!.signedUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('expires')).toMatch(/GMT$/);
    expect(await res.text()).toBe('secret words');

    await sleep(2100);
    const late = await fetch(data!.signedUrl);
    expect(late.status).toBe(400);
    expect(await late.json()).toEqual({
      statusCode: '400',
      code: 'InvalidJWT',
      error: 'InvalidJWT',
      message: 'jwt expired',
    });
  });

  it('rejects a token for another path and a tampered token', async () => {
    const { data } = await storage.from('private').createSignedUrl('doc.txt', 60);
    const token = new URL(data!.signedUrl).searchParams.get('token')!;
    const other = await fetch(`${emu.url}/storage/v1/object/sign/private/other.txt?token=${token}`);
    expect(await other.json()).toMatchObject({ statusCode: '400', code: 'InvalidSignature' });
    const tampered = await fetch(`${data!.signedUrl.slice(0, -2)}xx`);
    expect(await tampered.json()).toMatchObject({ statusCode: '400', code: 'InvalidJWT' });
  });

  it('adds the download option', async () => {
    const { data } = await storage
      .from('private')
      .createSignedUrl('doc.txt', 60, { download: 'saved.txt' });
    const res = await fetch(data!.signedUrl);
    expect(res.headers.get('content-disposition')).toContain('filename=saved.txt');
  });

  it('signs several paths at once, with an error for missing ones', async () => {
    const { data, error } = await storage
      .from('private')
      .createSignedUrls(['doc.txt', 'missing.txt'], 60);
    expect(error).toBeNull();
    expect(data![0]).toMatchObject({ path: 'doc.txt', error: null });
    expect(await (await fetch(data![0]!.signedUrl!)).text()).toBe('secret words');
    expect(data![1]).toMatchObject({
      path: 'missing.txt',
      error: 'Either the object does not exist or you do not have access to it',
    });
  });

  it('refuses to sign a missing object', async () => {
    const { error } = await storage.from('private').createSignedUrl('missing.txt', 60);
    expect(error).toMatchObject({ statusCode: '404', message: 'Object not found' });
  });

  it('creates a signed upload URL another client can upload to', async () => {
    const { data, error } = await storage.from('private').createSignedUploadUrl('up/load.txt');
    expect(error).toBeNull();
    expect(data!.path).toBe('up/load.txt');
    const anon = client(emu, emu.keys.publishable).storage;
    const uploaded = await anon
      .from('private')
      .uploadToSignedUrl('up/load.txt', data!.token, 'via signed url');
    expect(uploaded.error).toBeNull();
    expect(uploaded.data).toMatchObject({ path: 'up/load.txt', fullPath: 'private/up/load.txt' });
    expect(await (await storage.from('private').download('up/load.txt')).data!.text()).toBe(
      'via signed url',
    );
    // Without upsert the token cannot overwrite.
    const again = await anon.from('private').uploadToSignedUrl('up/load.txt', data!.token, 'again');
    expect(again.error).toMatchObject({ statusCode: '409' });
    // A download token is not an upload grant.
    const signed = await storage.from('private').createSignedUrl('doc.txt', 60);
    const downloadToken = new URL(signed.data!.signedUrl).searchParams.get('token')!;
    const misuse = await anon.from('private').uploadToSignedUrl('doc.txt', downloadToken, 'x');
    expect(misuse.error).toMatchObject({ statusCode: '400' });
  });

  it('lets an upsert token overwrite, owned by the signer', async () => {
    const signed = await storage.from('private').createSignedUploadUrl('doc.txt', { upsert: true });
    const anon = client(emu, emu.keys.anon).storage;
    const put = await anon.from('private').uploadToSignedUrl('doc.txt', signed.data!.token, 'new');
    expect(put.error).toBeNull();
    expect(await (await storage.from('private').download('doc.txt')).data!.text()).toBe('new');
  });
});
