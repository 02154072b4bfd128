// Image transformation: a 2000 px JPEG made with sharp, resized and re-encoded by /render/image.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { client, startTestEmulator } from './testing.js';

let emu: RunningEmulator;
let storage: ReturnType<typeof client>['storage'];
let original: Buffer;

beforeAll(async () => {
  emu = await startTestEmulator();
  storage = client(emu, emu.keys.secret).storage;
  await storage.createBucket('images', { public: true });
  await storage.createBucket('private-images', { public: false });
  // 2000×1000 with a gradient so re-encoding at different qualities changes the size.
  const width = 2000;
  const height = 1000;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = x % 256;
      raw[i + 1] = y % 256;
      raw[i + 2] = (x * y) % 256;
    }
  }
  original = await sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
  const blob = new Blob([new Uint8Array(original)], { type: 'image/jpeg' });
  await storage.from('images').upload('photo.jpg', blob);
  await storage.from('private-images').upload('photo.jpg', blob);
  await storage.from('images').upload('notes.txt', 'not an image');
});
afterAll(() => emu?.stop());

async function fetchImage(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  return { res, body, meta: res.status === 200 ? await sharp(body).metadata() : null };
}

describe('storage image render', () => {
  it('resizes to the requested width keeping the aspect ratio', async () => {
    const url = storage.from('images').getPublicUrl('photo.jpg', { transform: { width: 640 } })
      .data.publicUrl;
    expect(url).toContain('/render/image/public/images/photo.jpg?width=640');
    const { res, meta } = await fetchImage(url);
    expect(res.status).toBe(200);
    expect(meta).toMatchObject({ width: 640, height: 320, format: 'jpeg' });
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('x-transformations')).toBe('width:640,resizing_type:fill');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
  });

  it('answers webp when the client accepts it, the source format otherwise', async () => {
    const url = `${emu.url}/storage/v1/render/image/public/images/photo.jpg?width=300`;
    const webp = await fetchImage(url, { Accept: 'image/webp,image/*,*/*;q=0.8' });
    expect(webp.res.headers.get('content-type')).toBe('image/webp');
    expect(webp.meta).toMatchObject({ format: 'webp', width: 300 });
    const origin = await fetchImage(`${url}&format=origin`, { Accept: 'image/webp' });
    expect(origin.meta?.format).toBe('jpeg');
    const avif = await fetchImage(`${url}&format=avif`);
    expect(avif.meta?.format).toBe('heif');
    expect(avif.res.headers.get('content-type')).toBe('image/avif');
  });

  it('applies cover, contain and fill', async () => {
    const url = (resize: string) =>
      `${emu.url}/storage/v1/render/image/public/images/photo.jpg?width=400&height=400&resize=${resize}`;
    expect((await fetchImage(url('cover'))).meta).toMatchObject({ width: 400, height: 400 });
    expect((await fetchImage(url('contain'))).meta).toMatchObject({ width: 400, height: 200 });
    expect((await fetchImage(url('fill'))).meta).toMatchObject({ width: 400, height: 400 });
    const contain = await fetchImage(url('contain'));
    expect(contain.res.headers.get('x-transformations')).toBe(
      'height:400,width:400,resizing_type:fit',
    );
  });

  it('uses quality 80 by default', async () => {
    const url = `${emu.url}/storage/v1/render/image/public/images/photo.jpg?width=800`;
    const byDefault = (await fetchImage(url)).body.length;
    const q80 = (await fetchImage(`${url}&quality=80`)).body.length;
    const q30 = (await fetchImage(`${url}&quality=30`)).body.length;
    expect(byDefault).toBe(q80);
    expect(q30).toBeLessThan(q80);
    const bad = await fetch(`${url}&quality=5`);
    expect(await bad.json()).toMatchObject({ statusCode: '400', code: 'InvalidRequest' });
  });

  it('renders authenticated and signed variants through supabase-js', async () => {
    const { data } = await storage
      .from('private-images')
      .download('photo.jpg', { transform: { width: 200 } });
    expect((await sharp(Buffer.from(await data!.arrayBuffer())).metadata()).width).toBe(200);

    const signed = await storage
      .from('private-images')
      .createSignedUrl('photo.jpg', 60, { transform: { width: 100, height: 100 } });
    expect(signed.data!.signedUrl).toContain('/render/image/sign/private-images/photo.jpg?token=');
    // Query parameters are ignored: the token carries the transformations.
    const { meta } = await fetchImage(`${signed.data!.signedUrl}&width=999`);
    expect(meta).toMatchObject({ width: 100, height: 100 });

    const denied = await fetch(
      `${emu.url}/storage/v1/render/image/public/private-images/photo.jpg?width=10`,
    );
    expect(await denied.json()).toMatchObject({ statusCode: '404', code: 'NoSuchBucket' });
  });

  it('refuses sources that are not images', async () => {
    const res = await fetch(`${emu.url}/storage/v1/render/image/public/images/notes.txt?width=10`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      statusCode: '400',
      code: 'InvalidRequest',
      error: 'InvalidRequest',
      message: 'The source image is invalid or unsupported for rendering',
    });
  });
});
