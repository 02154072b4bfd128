// Object responses with upstream's headers: type, length, ETag, Last-Modified, Cache-Control, Range and 304s.
import { ERRORS } from './errors.js';
import type { FileStore } from './files.js';
import { contentDisposition, parseRange } from './limits.js';

export interface ObjectRow {
  id: string;
  bucket_id: string;
  name: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  metadata: Record<string, unknown> | null;
  user_metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
  last_accessed_at: string;
}

export interface AssetOptions {
  download?: string | null;
  /** Signed URLs answer with `Expires` instead of Cache-Control (upstream getSignedObject). */
  expires?: string;
  /**
   * The request's If-None-Match. A stale one adds `stale-while-revalidate=30` to assets and
   * `must-revalidate` to HEAD answers (upstream Renderer / HeadRenderer handleCacheControl).
   */
  ifNoneMatch?: string | null;
  head?: boolean;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** supabase/storage Renderer.setHeaders: `text/html` is served as text/plain. */
export function servedContentType(mimetype: string | undefined): string {
  const type = mimetype ?? 'application/octet-stream';
  return type.includes('text/html') ? 'text/plain' : type;
}

/** Headers every rendered asset carries (Renderer.setHeaders), minus type/length. */
export function assetHeaders(row: ObjectRow, opts: AssetOptions): Headers {
  const meta = row.metadata ?? {};
  const headers = new Headers({ 'Accept-Ranges': 'bytes', 'X-Robots-Tag': 'none' });
  const eTag = str(meta.eTag);
  if (eTag) headers.set('ETag', eTag);
  const lastModified = str(meta.lastModified);
  if (lastModified) headers.set('Last-Modified', new Date(lastModified).toUTCString());
  if (opts.expires) {
    headers.set('Expires', opts.expires);
  } else {
    const cacheControl = [str(meta.cacheControl) || 'no-cache'];
    if (opts.ifNoneMatch && opts.ifNoneMatch !== eTag) {
      cacheControl.push(opts.head ? 'must-revalidate' : 'stale-while-revalidate=30');
    }
    headers.set('Cache-Control', cacheControl.join(', '));
  }
  if (opts.download !== undefined && opts.download !== null) {
    headers.set('Content-Disposition', contentDisposition(opts.download));
  }
  return headers;
}

/** The bytes of an object, honouring If-None-Match, If-Modified-Since and Range (file backend getObject). */
export async function objectResponse(
  req: Request,
  row: ObjectRow,
  files: FileStore,
  opts: AssetOptions,
): Promise<Response> {
  const ref = { bucket: row.bucket_id, key: row.name, version: row.version ?? '' };
  const size = row.version ? await files.size(ref) : null;
  // A row without its file (e.g. inserted by SQL): upstream's renderer answers this 404 shape.
  if (size === null) {
    return new Response(
      JSON.stringify({
        error: 'Not found',
        message: 'The resource was not found',
        statusCode: '404',
        code: 'NoSuchKey',
      }),
      { status: 400, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } },
    );
  }
  const meta = row.metadata ?? {};
  const headers = assetHeaders(row, { ...opts, ifNoneMatch: req.headers.get('if-none-match') });
  headers.set('Content-Type', servedContentType(str(meta.mimetype)));

  const eTag = str(meta.eTag);
  const ifNoneMatch = req.headers.get('if-none-match');
  const ifModifiedSince = req.headers.get('if-modified-since');
  const lastModified = str(meta.lastModified);
  const notModified =
    (ifNoneMatch && eTag && ifNoneMatch === eTag) ||
    (!ifNoneMatch &&
      ifModifiedSince &&
      lastModified &&
      // HTTP dates have second precision; compare at that precision.
      Math.floor(new Date(lastModified).getTime() / 1000) * 1000 <=
        new Date(ifModifiedSince).getTime());
  if (notModified) {
    headers.set('Content-Length', '0');
    return new Response(null, { status: 304, headers });
  }

  const rangeHeader = req.headers.get('range');
  if (rangeHeader) {
    const range = parseRange(rangeHeader, size);
    headers.set('Content-Range', `bytes ${range.from}-${range.to}/${size}`);
    headers.set('Content-Length', String(range.size));
    const body = req.method === 'HEAD' ? null : files.read(ref, range);
    return new Response(body, { status: 206, headers });
  }
  headers.set('Content-Length', String(size));
  return new Response(req.method === 'HEAD' ? null : files.read(ref), { status: 200, headers });
}

/** `?download` / `?download=name` as upstream reads it: present → attachment. */
export function downloadParam(url: URL): string | null {
  return url.searchParams.has('download') ? (url.searchParams.get('download') ?? '') : null;
}

export function requireVersion(row: ObjectRow | undefined): ObjectRow {
  if (!row) throw ERRORS.noSuchKey();
  return row;
}
