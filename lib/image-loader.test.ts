// Unit tests for the Supabase Storage image loader (SPEC §0, §9; contract §3.5).
import { describe, expect, it } from 'vitest';
import imageLoader, { storageImageUrl } from './image-loader';

const BASE = 'https://abc.supabase.co';

describe('storageImageUrl', () => {
  it('maps a <bucket>/<path> storage path to the render endpoint with quality 75 by default', () => {
    expect(storageImageUrl({ src: 'media/logo.png', width: 640 }, BASE)).toBe(
      'https://abc.supabase.co/storage/v1/render/image/public/media/logo.png?width=640&quality=75',
    );
  });

  it('keeps an explicit quality and nested folders, encoding each segment', () => {
    expect(
      storageImageUrl(
        { src: 'media/2026/03/my photo#1.jpg', width: 1080, quality: 90 },
        BASE + '/',
      ),
    ).toBe(
      'https://abc.supabase.co/storage/v1/render/image/public/media/2026/03/my%20photo%231.jpg?width=1080&quality=90',
    );
  });

  it('clamps quality to what Storage accepts (20–100)', () => {
    const q = (quality: number) =>
      new URL(storageImageUrl({ src: 'media/a.png', width: 16, quality }, BASE)).searchParams.get(
        'quality',
      );
    expect([q(1), q(19.6), q(55), q(100)]).toEqual(['20', '20', '55', '100']);
  });

  it('rewrites a public object URL (getPublicUrl) to the render URL on its own origin', () => {
    expect(
      storageImageUrl(
        {
          src: 'http://127.0.0.1:54321/storage/v1/object/public/media/team/ada.webp',
          width: 256,
        },
        BASE,
      ),
    ).toBe(
      'http://127.0.0.1:54321/storage/v1/render/image/public/media/team/ada.webp?width=256&quality=75',
    );
  });

  it('replaces the size of an existing render URL and keeps its other parameters', () => {
    expect(
      storageImageUrl(
        {
          src: `${BASE}/storage/v1/render/image/public/media/a.png?width=10&resize=contain&quality=30`,
          width: 828,
          quality: 60,
        },
        BASE,
      ),
    ).toBe(
      `${BASE}/storage/v1/render/image/public/media/a.png?width=828&resize=contain&quality=60`,
    );
  });

  it.each([
    '/logo.svg',
    './relative.png',
    'https://images.example.com/a.png',
    `${BASE}/storage/v1/object/sign/exports/a.png?token=abc`,
    `${BASE}/storage/v1/render/image/sign/media/a.png?token=abc`,
    'data:image/png;base64,iVBORw0KGgo=',
    'blob:http://127.0.0.1:3000/0b6c6f3e',
  ])('passes %j through unchanged', (src) => {
    expect(storageImageUrl({ src, width: 640 }, BASE)).toBe(src);
  });

  it.each(['media', 'media/', 'media//a.png', ''])(
    'refuses the malformed storage path %j',
    (src) => {
      expect(() => storageImageUrl({ src, width: 640 }, BASE)).toThrow(/is not "<bucket>\/<path>"/);
    },
  );
});

describe('default export', () => {
  it('uses the configured project URL (the local stack unless NEXT_PUBLIC_SUPABASE_URL is set)', () => {
    const expected = (process.env.NEXT_PUBLIC_SUPABASE_URL || 'http://127.0.0.1:54321').replace(
      /\/+$/,
      '',
    );
    expect(imageLoader({ src: 'media/logo.png', width: 48 })).toBe(
      `${expected}/storage/v1/render/image/public/media/logo.png?width=48&quality=75`,
    );
  });
});
