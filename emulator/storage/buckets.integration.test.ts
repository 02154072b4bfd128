// Storage buckets through supabase-js: CRUD with the service/secret keys, denial for anon keys, errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { client, migrate, startTestEmulator } from './testing.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu?.stop());

describe('storage buckets', () => {
  it.each(['serviceRole', 'secret'] as const)(
    'creates, reads, updates and deletes with the %s key',
    async (key) => {
      const storage = client(emu, emu.keys[key]).storage;
      const id = `crud-${key}`;
      const created = await storage.createBucket(id, {
        public: true,
        fileSizeLimit: '5MB',
        allowedMimeTypes: ['image/*'],
      });
      expect(created).toEqual({ data: { name: id }, error: null });

      const got = await storage.getBucket(id);
      expect(got.error).toBeNull();
      expect(got.data).toMatchObject({
        id,
        name: id,
        public: true,
        file_size_limit: 5_000_000,
        allowed_mime_types: ['image/*'],
      });
      expect(got.data!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

      const listed = await storage.listBuckets();
      expect(listed.data?.map((b) => b.id)).toContain(id);
      expect(listed.data?.find((b) => b.id === id)?.type).toBe('STANDARD');

      const updated = await storage.updateBucket(id, { public: false, fileSizeLimit: 1024 });
      expect(updated).toEqual({ data: { message: 'Successfully updated' }, error: null });
      expect((await storage.getBucket(id)).data).toMatchObject({
        public: false,
        file_size_limit: 1024,
      });

      const deleted = await storage.deleteBucket(id);
      expect(deleted).toEqual({ data: { message: 'Successfully deleted' }, error: null });
      const gone = await storage.getBucket(id);
      expect(gone.error).toMatchObject({ status: 400, statusCode: '404' });
    },
  );

  it.each(['anon', 'publishable'] as const)(
    'denies bucket creation with the %s key',
    async (key) => {
      const storage = client(emu, emu.keys[key]).storage;
      const { data, error } = await storage.createBucket(`denied-${key}`);
      expect(data).toBeNull();
      expect(error).toMatchObject({
        status: 400,
        statusCode: '403',
        message: 'new row violates row-level security policy',
      });
      // Without a SELECT policy on storage.buckets anon sees no buckets at all.
      await client(emu, emu.keys.secret).storage.createBucket(`visible-${key}`);
      expect((await storage.listBuckets()).data).toEqual([]);
      expect((await storage.getBucket(`visible-${key}`)).error).toMatchObject({
        statusCode: '404',
      });
    },
  );

  it('answers errors with HTTP 400 and the real status as a string', async () => {
    const res = await fetch(`${emu.url}/storage/v1/bucket/nope`, {
      headers: { apikey: emu.keys.secret },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      statusCode: '404',
      code: 'NoSuchBucket',
      error: 'Bucket not found',
      message: 'Bucket not found',
    });

    const storage = client(emu, emu.keys.secret).storage;
    await storage.createBucket('dup');
    const dup = await storage.createBucket('dup');
    expect(dup.error).toMatchObject({ statusCode: '409', message: 'The resource already exists' });
    const badSize = await storage.createBucket('bad-size', {
      public: false,
      fileSizeLimit: '5 potatoes',
    });
    expect(badSize.error).toMatchObject({ statusCode: '400' });
    const badName = await storage.createBucket('bad/name');
    expect(badName.error).toMatchObject({ statusCode: '400', message: 'Bucket name invalid' });
  });

  it("checks allowed mime types with upstream's pattern, which lets anything ending in * through", async () => {
    const storage = client(emu, emu.keys.secret).storage;
    for (const [id, types] of [
      ['mime-star', ['*']],
      ['mime-star-star', ['*/*']],
      ['mime-charset', ['text/plain; charset=utf-8', 'image/*']],
    ] as const) {
      const created = await storage.createBucket(id, {
        public: false,
        allowedMimeTypes: [...types],
      });
      expect(created.error).toBeNull();
      expect((await storage.getBucket(id)).data?.allowed_mime_types).toEqual(types);
    }
    const updated = await storage.updateBucket('mime-charset', {
      public: false,
      allowedMimeTypes: ['*'],
    });
    expect(updated.error).toBeNull();
    for (const bad of ['text', 'text/plain/extra', 'some_thing/x']) {
      const refused = await storage.createBucket(`mime-bad-${bad.length}`, {
        public: false,
        allowedMimeTypes: [bad],
      });
      expect(refused.error).toMatchObject({
        statusCode: '415',
        message: `mime type ${bad} is not supported`,
      });
    }
    // Upload matching (upstream uploader validateMimeType) only knows type/* and exact entries,
    // so a typed upload into a bucket allowing just "*" is refused there, and here.
    const upload = await storage
      .from('mime-star')
      .upload('a.txt', 'hi', { contentType: 'text/plain' });
    expect(upload.error).toMatchObject({
      statusCode: '415',
      message: 'mime type text/plain is not supported',
    });
  });

  it('refuses to delete a non-empty bucket and empties it', async () => {
    const storage = client(emu, emu.keys.secret).storage;
    await storage.createBucket('full');
    await storage.from('full').upload('a.txt', 'hello');
    const res = await fetch(`${emu.url}/storage/v1/bucket/full`, {
      method: 'DELETE',
      headers: { apikey: emu.keys.secret, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      statusCode: '409',
      code: 'ResourceNotEmpty',
      error: 'ResourceNotEmpty',
      message: 'The bucket you tried to delete is not empty',
    });
    const emptied = await storage.emptyBucket('full');
    expect(emptied.error).toBeNull();
    expect((await storage.from('full').list()).data).toEqual([]);
    expect((await storage.deleteBucket('full')).error).toBeNull();
  });

  it('picks up buckets inserted by SQL, as a migration does', async () => {
    await migrate(
      emu,
      "insert into storage.buckets (id, name, public) values ('from-sql', 'from-sql', true) on conflict do nothing",
    );
    const { data } = await client(emu, emu.keys.secret).storage.getBucket('from-sql');
    expect(data).toMatchObject({ id: 'from-sql', public: true, file_size_limit: null });
  });

  it('answers unknown routes with the upstream not-found shape', async () => {
    const res = await fetch(`${emu.url}/storage/v1/nothing/here`, {
      headers: { apikey: emu.keys.secret },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      statusCode: '404',
      code: 'InvalidRequest',
      error: 'Not Found',
      message: 'Route GET:/nothing/here not found',
    });
    const tus = await fetch(`${emu.url}/storage/v1/upload/resumable`, {
      method: 'POST',
      headers: { apikey: emu.keys.secret },
    });
    expect(tus.status).toBe(501);
    expect(await tus.json()).toMatchObject({ statusCode: '501', code: 'NotSupported' });
  });
});
