// Storage objects through supabase-js and raw HTTP: uploads, downloads, public URLs, list, move, copy, remove.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { client, startTestEmulator } from './testing.js';

let emu: RunningEmulator;
let storage: ReturnType<typeof client>['storage'];
beforeAll(async () => {
  emu = await startTestEmulator();
  storage = client(emu, emu.keys.secret).storage;
  await storage.createBucket('docs', { public: false });
  await storage.createBucket('pub', { public: true });
  await storage.createBucket('limited', {
    public: false,
    fileSizeLimit: 10,
    allowedMimeTypes: ['image/*', 'text/csv'],
  });
});
afterAll(() => emu?.stop());

const base = () => `${emu.url}/storage/v1`;
const auth = () => ({ apikey: emu.keys.secret, Authorization: `Bearer ${emu.keys.serviceRole}` });

describe('storage uploads', () => {
  it('uploads a Blob as multipart with an empty field name', async () => {
    const blob = new Blob(['hello blob'], { type: 'text/plain' });
    const { data, error } = await storage.from('docs').upload('folder/blob.txt', blob, {
      cacheControl: '120',
      metadata: { owner: 'tests' },
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ path: 'folder/blob.txt', fullPath: 'docs/folder/blob.txt' });
    expect(data!.id).toMatch(/^[0-9a-f-]{36}$/);

    const info = await storage.from('docs').info('folder/blob.txt');
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({
      name: 'folder/blob.txt',
      size: 10,
      contentType: 'text/plain',
      cacheControl: 'max-age=120',
      metadata: { owner: 'tests' },
    });
  });

  it('uploads strings and Buffers as raw bodies with headers', async () => {
    const fromString = await storage.from('docs').upload('raw/string.txt', 'hello string', {
      metadata: { kind: 'string' },
    });
    expect(fromString.error).toBeNull();
    const fromBuffer = await storage
      .from('docs')
      .upload('raw/buffer.bin', Buffer.from([1, 2, 3, 4]), { contentType: 'application/x-test' });
    expect(fromBuffer.error).toBeNull();

    const res = await fetch(`${base()}/object/docs/raw/buffer.bin`, { headers: auth() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-test');
    expect(res.headers.get('cache-control')).toBe('max-age=3600');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3, 4]));
    const info = await storage.from('docs').info('raw/string.txt');
    expect(info.data).toMatchObject({
      contentType: 'text/plain;charset=UTF-8',
      metadata: { kind: 'string' },
    });
  });

  it('rejects a duplicate unless upserting, and update replaces the bytes', async () => {
    await storage.from('docs').upload('dup.txt', 'one');
    const dup = await storage.from('docs').upload('dup.txt', 'two');
    expect(dup.error).toMatchObject({
      status: 400,
      statusCode: '409',
      message: 'The resource already exists',
    });
    const upsert = await storage.from('docs').upload('dup.txt', 'three', { upsert: true });
    expect(upsert.error).toBeNull();
    expect(await (await storage.from('docs').download('dup.txt')).data!.text()).toBe('three');
    const update = await storage.from('docs').update('dup.txt', 'four');
    expect(update.error).toBeNull();
    expect(update.data!.id).toBe(upsert.data!.id);
    expect(await (await storage.from('docs').download('dup.txt')).data!.text()).toBe('four');
  });

  it('enforces the bucket size limit and mime types', async () => {
    const big = await storage
      .from('limited')
      .upload('big.csv', 'a,b,c,d,e,f,g', { contentType: 'text/csv' });
    expect(big.error).toMatchObject({
      statusCode: '413',
      message: 'The object exceeded the maximum allowed size',
    });
    const wrongType = await storage
      .from('limited')
      .upload('x.txt', 'hi', { contentType: 'text/plain' });
    expect(wrongType.error).toMatchObject({
      statusCode: '415',
      message: 'mime type text/plain is not supported',
    });
    const wildcard = await storage
      .from('limited')
      .upload('x.png', new Blob(['png'], { type: 'image/png' }));
    expect(wildcard.error).toBeNull();

    const form = new FormData();
    form.append('', new Blob([new Uint8Array(2 * 1024 * 1024)], { type: 'image/png' }));
    const hugeForm = await fetch(`${base()}/object/limited/huge.png`, {
      method: 'POST',
      headers: auth(),
      body: form,
    });
    expect(await hugeForm.json()).toMatchObject({ statusCode: '413', code: 'EntityTooLarge' });

    const res = await fetch(`${base()}/object/limited/big.csv`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'text/csv' },
      body: '0123456789ABC',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      statusCode: '413',
      code: 'EntityTooLarge',
      error: 'Payload too large',
      message: 'The object exceeded the maximum allowed size',
    });
  });

  it('answers a missing bucket and an invalid key with the upstream errors', async () => {
    const missing = await storage.from('nowhere').upload('a.txt', 'x');
    expect(missing.error).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
    const res = await fetch(`${base()}/object/docs/%C3%BC.txt`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(await res.json()).toMatchObject({ statusCode: '400', code: 'InvalidKey' });
  });
});

describe('storage downloads', () => {
  it('serves bytes with the upstream headers, Range, ETag and 304', async () => {
    await storage.from('docs').upload('range.txt', '0123456789', { cacheControl: '60' });
    const url = `${base()}/object/docs/range.txt`;
    const full = await fetch(url, { headers: auth() });
    expect(full.status).toBe(200);
    expect(full.headers.get('content-length')).toBe('10');
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(full.headers.get('cache-control')).toBe('max-age=60');
    const etag = full.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const lastModified = full.headers.get('last-modified');
    expect(lastModified).toMatch(/GMT$/);
    expect(await full.text()).toBe('0123456789');

    const part = await fetch(url, { headers: { ...auth(), Range: 'bytes=2-5' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 2-5/10');
    expect(await part.text()).toBe('2345');

    const cached = await fetch(url, { headers: { ...auth(), 'If-None-Match': etag! } });
    expect(cached.status).toBe(304);
    const stale = await fetch(url, { headers: { ...auth(), 'If-None-Match': '"old"' } });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('cache-control')).toBe('max-age=60, stale-while-revalidate=30');
    const since = await fetch(url, { headers: { ...auth(), 'If-Modified-Since': lastModified! } });
    expect(since.status).toBe(304);

    const head = await fetch(url, { method: 'HEAD', headers: auth() });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('10');

    const attachment = await fetch(`${url}?download=nice%20name.txt`, { headers: auth() });
    expect(attachment.headers.get('content-disposition')).toBe(
      "attachment; filename=nice%20name.txt; filename*=UTF-8''nice%20name.txt",
    );
  });

  it('downloads through supabase-js and reports a missing object', async () => {
    const { data } = await storage.from('docs').download('range.txt');
    expect(await data!.text()).toBe('0123456789');
    const missing = await storage.from('docs').download('missing.txt');
    expect(missing.error).toMatchObject({ status: 400 });
    const res = await fetch(`${base()}/object/docs/missing.txt`, { headers: auth() });
    expect(await res.json()).toEqual({
      statusCode: '404',
      code: 'NoSuchKey',
      error: 'not_found',
      message: 'Object not found',
    });
  });

  it('serves public URLs without a token, only for public buckets', async () => {
    await storage.from('pub').upload('hello.txt', 'public hello');
    const { data } = storage.from('pub').getPublicUrl('hello.txt');
    const res = await fetch(data.publicUrl);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('public hello');
    const withDownload = storage.from('pub').getPublicUrl('hello.txt', { download: 'x.txt' });
    const dl = await fetch(withDownload.data.publicUrl);
    expect(dl.headers.get('content-disposition')).toContain('filename=x.txt');

    const head = await fetch(data.publicUrl, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('12');
    expect(head.headers.get('content-type')).toBe('text/plain;charset=UTF-8');
    // HEAD of a public bucket's object is answered elevated, so anon sees it exists.
    const anon = client(emu, emu.keys.anon).storage;
    expect((await anon.from('pub').exists('hello.txt')).data).toBe(true);
    expect((await anon.from('docs').exists('range.txt')).data).toBe(false);

    const privateUrl = storage.from('docs').getPublicUrl('range.txt').data.publicUrl;
    const denied = await fetch(privateUrl);
    expect(denied.status).toBe(400);
    expect(await denied.json()).toMatchObject({ statusCode: '404', code: 'NoSuchBucket' });
  });

  it('downloads from a public bucket without RLS and without a valid token', async () => {
    // No SELECT policy on storage.objects: a public bucket's objects are read elevated anyway.
    await storage.from('pub').upload('open.txt', 'open to all');
    const anon = client(emu, emu.keys.anon).storage;
    const viaClient = await anon.from('pub').download('open.txt');
    expect(viaClient.error).toBeNull();
    expect(await viaClient.data!.text()).toBe('open to all');
    const anonymous: Record<string, string>[] = [{}, { Authorization: 'Bearer not-a-jwt' }];
    for (const headers of anonymous) {
      const res = await fetch(`${base()}/object/pub/open.txt`, { headers });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('open to all');
      // Anonymous callers only reach public buckets; a private one is "not found".
      const hidden = await fetch(`${base()}/object/docs/range.txt`, { headers });
      expect(hidden.status).toBe(400);
      expect(await hidden.json()).toEqual({
        statusCode: '404',
        code: 'NoSuchBucket',
        error: 'Bucket not found',
        message: 'Bucket not found',
      });
    }
    // The /authenticated route still wants a valid token, but skips RLS for a public bucket.
    const noToken = await fetch(`${base()}/object/authenticated/pub/open.txt`);
    expect(await noToken.json()).toMatchObject({ statusCode: '403', code: 'AccessDenied' });
    const withToken = await fetch(`${base()}/object/authenticated/pub/open.txt`, {
      headers: { apikey: emu.keys.anon, Authorization: `Bearer ${emu.keys.anon}` },
    });
    expect(withToken.status).toBe(200);
    expect(await withToken.text()).toBe('open to all');
  });

  it('reports info and exists', async () => {
    expect((await storage.from('docs').exists('range.txt')).data).toBe(true);
    expect((await storage.from('docs').exists('nope.txt')).data).toBe(false);
  });
});

describe('storage list, move, copy, remove', () => {
  it('lists one level with folders', async () => {
    await storage.from('docs').upload('tree/a.txt', 'a');
    await storage.from('docs').upload('tree/B.txt', 'b');
    await storage.from('docs').upload('tree/sub/c.txt', 'c');
    await storage.from('docs').upload('tree/sub/deeper/d.txt', 'd');
    await storage.from('docs').upload('tree/sub.txt', 'e');
    const { data, error } = await storage.from('docs').list('tree');
    expect(error).toBeNull();
    // Upstream storage.search() orders by lower(name) byte-wise: "sub.txt" < "sub/…".
    expect(data!.map((o) => o.name)).toEqual(['a.txt', 'B.txt', 'sub.txt', 'sub']);
    const folder = data!.find((o) => o.name === 'sub')!;
    expect(folder).toMatchObject({ id: null, metadata: null });
    expect(data!.find((o) => o.name === 'a.txt')!.metadata).toMatchObject({
      size: 1,
      mimetype: 'text/plain;charset=UTF-8',
    });

    const sub = await storage.from('docs').list('tree/sub/');
    expect(sub.data!.map((o) => o.name)).toEqual(['c.txt', 'deeper']);
    const searched = await storage.from('docs').list('tree', { search: 'b' });
    expect(searched.data!.map((o) => o.name)).toEqual(['B.txt']);
    const paged = await storage.from('docs').list('tree', { limit: 1, offset: 1 });
    expect(paged.data!.map((o) => o.name)).toEqual(['B.txt']);
    const desc = await storage
      .from('docs')
      .list('tree', { sortBy: { column: 'name', order: 'desc' } });
    expect(desc.data!.map((o) => o.name)).toEqual(['sub', 'sub.txt', 'B.txt', 'a.txt']);
    const byDate = await storage
      .from('docs')
      .list('tree', { sortBy: { column: 'created_at', order: 'asc' } });
    expect(byDate.data!.map((o) => o.name)).toEqual(['sub', 'a.txt', 'B.txt', 'sub.txt']);
  });

  it("validates list sortBy as upstream's body schema does", async () => {
    const list = (sortBy: unknown) =>
      fetch(`${base()}/object/list/docs`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: JSON.stringify({ prefix: 'tree', sortBy }),
      });
    const upper = await list({ column: 'name', order: 'DESC' });
    expect(upper.status).toBe(400);
    expect(await upper.json()).toEqual({
      statusCode: '400',
      code: 'InvalidRequest',
      error: 'InvalidRequest',
      message: 'body/sortBy/order must be equal to one of the allowed values',
    });
    expect(await (await list({ order: 'desc' })).json()).toMatchObject({
      statusCode: '400',
      message: "body/sortBy must have required property 'column'",
    });
    expect(await (await list({ column: 'size' })).json()).toMatchObject({
      statusCode: '400',
      message: 'body/sortBy/column must be equal to one of the allowed values',
    });
    expect((await list({ column: 'name' })).status).toBe(200);
  });

  it('lists with list-v2: folders, objects and a cursor', async () => {
    for (const name of ['v2/a.txt', 'v2/b.txt', 'v2/c/1.txt', 'v2/c/2.txt', 'v2/d.txt']) {
      await storage.from('docs').upload(name, name);
    }
    const first = await storage
      .from('docs')
      .listV2({ prefix: 'v2/', with_delimiter: true, limit: 2 });
    expect(first.error).toBeNull();
    expect(first.data).toMatchObject({ hasNext: true, folders: [] });
    expect(first.data!.objects.map((o) => o.name)).toEqual(['v2/a.txt', 'v2/b.txt']);
    const second = await storage.from('docs').listV2({
      prefix: 'v2/',
      with_delimiter: true,
      limit: 2,
      cursor: first.data!.nextCursor,
    });
    expect(second.data!.folders.map((f) => f.name)).toEqual(['v2/c/']);
    expect(second.data!.objects.map((o) => o.name)).toEqual(['v2/d.txt']);
    expect(second.data!.hasNext).toBe(false);
    const flat = await storage.from('docs').listV2({ prefix: 'v2/c/' });
    expect(flat.data!.objects.map((o) => o.name)).toEqual(['v2/c/1.txt', 'v2/c/2.txt']);
  });

  it('moves and copies objects', async () => {
    await storage.from('docs').upload('mv/src.txt', 'move me');
    const moved = await storage.from('docs').move('mv/src.txt', 'mv/dst.txt');
    expect(moved.error).toBeNull();
    expect(moved.data).toMatchObject({ message: 'Successfully moved', Key: 'docs/mv/dst.txt' });
    expect((await storage.from('docs').exists('mv/src.txt')).data).toBe(false);
    expect(await (await storage.from('docs').download('mv/dst.txt')).data!.text()).toBe('move me');

    const copied = await storage.from('docs').copy('mv/dst.txt', 'mv/copy.txt');
    expect(copied).toEqual({ data: { path: 'docs/mv/copy.txt' }, error: null });
    expect(await (await storage.from('docs').download('mv/copy.txt')).data!.text()).toBe('move me');

    const across = await storage
      .from('docs')
      .move('mv/copy.txt', 'moved.txt', { destinationBucket: 'pub' });
    expect(across.error).toBeNull();
    const pub = await fetch(storage.from('pub').getPublicUrl('moved.txt').data.publicUrl);
    expect(await pub.text()).toBe('move me');

    const clash = await storage.from('docs').copy('mv/dst.txt', 'mv/dst.txt');
    expect(clash.error).toMatchObject({ statusCode: '409' });
  });

  it('removes objects and returns the deleted rows', async () => {
    await storage.from('docs').upload('rm/1.txt', '1');
    await storage.from('docs').upload('rm/2.txt', '2');
    const { data, error } = await storage
      .from('docs')
      .remove(['rm/1.txt', 'rm/2.txt', 'rm/none.txt']);
    expect(error).toBeNull();
    expect(data!.map((o) => o.name).sort()).toEqual(['rm/1.txt', 'rm/2.txt']);
    expect(data![0]).toMatchObject({ bucket_id: 'docs' });
    expect((await storage.from('docs').list('rm')).data).toEqual([]);
  });
});
