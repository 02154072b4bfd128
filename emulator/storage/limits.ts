// Pure validation and parsing rules copied from supabase/storage (src/storage/limits.ts, range.ts, uploader.ts).
import { ERRORS } from './errors.js';

/** Upstream default upload limit; also the CLI's `[storage] file_size_limit = "50MiB"`. */
export const DEFAULT_FILE_SIZE_LIMIT = 50 * 1024 * 1024;

// Hyphen is last so it stays a literal (upstream VALID_OBJECT_KEY / VALID_BUCKET_NAME).
const VALID_OBJECT_KEY = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]*$/;
const VALID_BUCKET_NAME = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]*$/;

export function mustBeValidKey(key: string | undefined): asserts key is string {
  if (!key || !VALID_OBJECT_KEY.test(key)) throw ERRORS.invalidKey(key ?? '');
}

export function mustBeValidBucketName(name: unknown): asserts name is string {
  if (
    typeof name !== 'string' ||
    name.length === 0 ||
    name.length > 100 ||
    name.trim() !== name ||
    !VALID_BUCKET_NAME.test(name)
  ) {
    throw ERRORS.invalidBucketName();
  }
}

/** "5MB" → 5e6 (decimal units only, as upstream parseFileSizeToBytes; "50MiB" is rejected there too). */
export function parseFileSizeToBytes(value: string): number {
  const match = /(^[0-9]+(?:\.[0-9]+)?)(gb|mb|kb|b)$/i.exec(value);
  if (!match) throw ERRORS.invalidFileSizeLimit();
  const amount = +parseFloat(match[1]!).toPrecision(3);
  const unit = match[2]!.toUpperCase();
  const factor = unit === 'GB' ? 1e9 : unit === 'MB' ? 1e6 : unit === 'KB' ? 1000 : 1;
  return amount * factor;
}

/** A bucket's file_size_limit from the API: number, size string or null; capped by the global limit. */
export function parseBucketSizeLimit(value: unknown, globalLimit: number): number | null {
  if (value === null) return null;
  let bytes: number;
  if (typeof value === 'number') bytes = value;
  else if (typeof value === 'string') bytes = parseFileSizeToBytes(value);
  else throw ERRORS.invalidRequest('body/file_size_limit must be integer,string,null');
  if (!Number.isFinite(bytes) || bytes < 0) throw ERRORS.invalidFileSizeLimit();
  if (bytes > globalLimit) throw ERRORS.entityTooLarge();
  return Math.floor(bytes);
}

/**
 * Upstream validateMimeType: exact `type/subtype` or `type/*`. Parameters are not stripped there
 * either, so `text/plain;charset=UTF-8` does not match `text/plain`.
 */
export function validateMimeType(mimeType: string, allowed: readonly string[]): void {
  const requested = mimeType.split('/');
  if (requested.length < 2) throw ERRORS.invalidMimeType(mimeType);
  const [type, sub] = requested;
  for (const entry of allowed) {
    const [allowedType, allowedSub] = entry.split('/');
    if (allowedType === type && (allowedSub === '*' || allowedSub === sub)) return;
  }
  throw ERRORS.invalidMimeType(mimeType);
}

/**
 * A bucket's allowed mime types (upstream Storage.validateMimeType): `type/subtype` with an
 * optional `;charset=…`, or anything ending in `*` (`image/*`, a bare `*`), at most 1000
 * characters. Uploads are matched by validateMimeType above, which only knows `type/*` and exact
 * entries: upstream refuses every upload into a bucket whose only entry is `*`, and so do we.
 */
const ALLOWED_MIME_TYPE =
  /^([a-zA-Z0-9\-+.]+)\/([a-zA-Z0-9\-+.]+)(;\s*charset=[a-zA-Z0-9-]+)?$|\*$/;

export function checkAllowedMimeTypes(value: unknown): string[] | null {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw ERRORS.invalidRequest('body/allowed_mime_types must be array');
  }
  for (const type of value as string[]) {
    if (type.length > 1000 || !ALLOWED_MIME_TYPE.test(type)) throw ERRORS.invalidMimeType(type);
  }
  return value as string[];
}

export interface ByteRange {
  from: number;
  to: number;
  size: number;
}

/** `Range: bytes=a-b` / `bytes=a-` / `bytes=-n` (upstream parseRangeHeader); anything else → 416. */
export function parseRange(header: string, fileSize: number): ByteRange {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || fileSize <= 0) throw ERRORS.invalidRange();
  const [, start = '', end = ''] = match;
  if (!start && !end) throw ERRORS.invalidRange();
  if (!start) {
    const suffix = Number(end);
    if (!Number.isSafeInteger(suffix) || suffix <= 0) throw ERRORS.invalidRange();
    const from = Math.max(fileSize - suffix, 0);
    return { from, to: fileSize - 1, size: fileSize - from };
  }
  const from = Number(start);
  const to = end ? Number(end) : fileSize - 1;
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from > to || from >= fileSize) {
    throw ERRORS.invalidRange();
  }
  const clamped = Math.min(to, fileSize - 1);
  return { from, to: clamped, size: clamped - from + 1 };
}

/** Postgres's text timestamp ("2026-01-02 03:04:05.123456+00") → ISO as the pg driver's Date prints it. */
export function isoTime(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value);
  const match = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d(?:\.\d+)?)([+-]\d\d)(?::?(\d\d))?$/.exec(
    text,
  );
  const date = match
    ? new Date(`${match[1]}T${match[2]}${match[3]}:${match[4] ?? '00'}`)
    : new Date(text);
  return Number.isNaN(date.getTime()) ? text : date.toISOString();
}

/** Upstream Renderer.handleDownload. */
export function contentDisposition(download: string): string {
  if (download === '') return 'attachment;';
  const encoded = encodeURIComponent(download);
  return `attachment; filename=${encoded}; filename*=UTF-8''${encoded}`;
}
