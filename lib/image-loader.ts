// Next's custom image loader (next.config.js `loaderFile`): images are resized by Supabase Storage's
// image transformation endpoint, because a static export has no image server (SPEC §0).
//
// `src` conventions:
// - `media/logo.png`: a storage path, `<bucket>/<object path>` with no leading slash. It is served from
//   the configured project as `/storage/v1/render/image/public/media/logo.png?width=…&quality=…`.
// - `https://<project>/storage/v1/object/public/<bucket>/<path>` (what `getPublicUrl()` returns, and
//   what the media page copies): rewritten to the render URL on the same origin.
// - `…/storage/v1/render/image/public/…`: already a render URL; width and quality are set.
// - Anything else passes through unchanged: `/logo.svg` from `public/`, other hosts, `data:` and
//   `blob:` URLs, and signed URLs (for `/render/image/sign/` the transformation lives in the token,
//   so query parameters would be ignored — contract §3.5).
import type { ImageLoaderProps } from 'next/image';
import { SUPABASE_URL } from './config';

/** SPEC §9: quality 75 unless given. */
export const DEFAULT_QUALITY = 75;
// Storage accepts quality 20–100 (contract §3.5); Next allows 1–100.
const MIN_QUALITY = 20;
const MAX_QUALITY = 100;

const OBJECT_PUBLIC = '/storage/v1/object/public/';
const RENDER_PUBLIC = '/storage/v1/render/image/public/';

function withSize(url: URL, width: number, quality: number | undefined): string {
  const q = Math.min(MAX_QUALITY, Math.max(MIN_QUALITY, Math.round(quality ?? DEFAULT_QUALITY)));
  url.searchParams.set('width', String(Math.round(width)));
  url.searchParams.set('quality', String(q));
  return url.toString();
}

/** The loader with the project URL given explicitly (the default export binds it to the config). */
export function storageImageUrl(
  { src, width, quality }: ImageLoaderProps,
  supabaseUrl: string,
): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(src)) {
    if (!/^https?:/i.test(src)) return src; // data:, blob:
    const url = new URL(src);
    const objectAt = url.pathname.indexOf(OBJECT_PUBLIC);
    if (objectAt >= 0) {
      const prefix = url.pathname.slice(0, objectAt);
      url.pathname = prefix + RENDER_PUBLIC + url.pathname.slice(objectAt + OBJECT_PUBLIC.length);
      return withSize(url, width, quality);
    }
    if (url.pathname.includes(RENDER_PUBLIC)) return withSize(url, width, quality);
    return src;
  }
  if (src.startsWith('/') || src.startsWith('.')) return src; // a file of the site itself
  const [bucket, ...rest] = src.split('/');
  if (!bucket || rest.length === 0 || rest.some((segment) => segment === '')) {
    throw new Error(`image src "${src}" is not "<bucket>/<path>", a URL or a /path of the site`);
  }
  const path = [bucket, ...rest].map(encodeURIComponent).join('/');
  return withSize(
    new URL(`${supabaseUrl.replace(/\/+$/, '')}${RENDER_PUBLIC}${path}`),
    width,
    quality,
  );
}

export default function imageLoader(props: ImageLoaderProps): string {
  return storageImageUrl(props, SUPABASE_URL);
}
