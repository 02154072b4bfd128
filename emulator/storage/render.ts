// Image transformation (`/render/image/...`) with sharp, standing in for the imgproxy upstream calls.
import sharp, { type FormatEnum, type Metadata, type Sharp } from 'sharp';
import { findBucket } from './buckets.js';
import { callerOf } from './caller.js';
import { assetHeaders, downloadParam, type ObjectRow } from './download.js';
import { ERRORS, StorageError } from './errors.js';
import { findObject } from './objects.js';
import type { RouteArgs, RouteHandler } from './route.js';

export interface TransformOptions {
  width?: number;
  height?: number;
  resize?: 'cover' | 'contain' | 'fill';
  format?: 'origin' | 'avif' | 'webp';
  quality?: number;
}

/** Hosted limits (contract §3.5): output 1–2500 px, source ≤ 25 MB and ≤ 50 megapixels. */
const SIZE_MIN = 1;
const SIZE_MAX = 2500;
const MAX_SOURCE_BYTES = 25 * 1024 * 1024;
const MAX_SOURCE_PIXELS = 50_000_000;
/** imgproxy's default quality, which Supabase leaves in place. */
const DEFAULT_QUALITY = 80;

const clamp = (n: number, min: number, max: number) => Math.min(Math.max(n, min), max);

/** Validates like upstream's transformationOptionsSchema (fastify → InvalidRequest messages). */
export function parseTransformOptions(
  source: Record<string, unknown>,
  where = 'querystring',
): TransformOptions {
  const out: TransformOptions = {};
  const int = (name: 'width' | 'height' | 'quality', min: number, max = Infinity) => {
    const raw = source[name];
    if (raw === undefined || raw === null || raw === '') return undefined;
    const n = typeof raw === 'number' ? raw : /^-?\d+$/.test(String(raw)) ? Number(raw) : NaN;
    if (!Number.isInteger(n)) throw ERRORS.invalidRequest(`${where}/${name} must be integer`);
    if (n < min) throw ERRORS.invalidRequest(`${where}/${name} must be >= ${min}`);
    if (n > max) throw ERRORS.invalidRequest(`${where}/${name} must be <= ${max}`);
    return n;
  };
  const oneOf = <T extends string>(name: string, values: readonly T[]): T | undefined => {
    const raw = source[name];
    if (raw === undefined || raw === null || raw === '') return undefined;
    if (!values.includes(raw as T)) {
      throw ERRORS.invalidRequest(`${where}/${name} must be equal to one of the allowed values`);
    }
    return raw as T;
  };
  out.width = int('width', 0);
  out.height = int('height', 0);
  out.quality = int('quality', 20, 100);
  out.resize = oneOf('resize', ['cover', 'contain', 'fill'] as const);
  out.format = oneOf('format', ['origin', 'avif', 'webp'] as const);
  for (const unsupported of ['gravity', 'x_offset', 'y_offset']) {
    if (source[unsupported] !== undefined) throw ERRORS.notImplemented(`image ${unsupported}`);
  }
  return out;
}

/**
 * upstream ImageRenderer.applyTransformation: the segments reported in X-Transformations
 * (`resizing_type:` as sent to imgproxy) or, with keepOriginal, stored in a signed token.
 */
export function transformSegments(options: TransformOptions, keepOriginal = false): string[] {
  const segments: string[] = [];
  if (options.height) segments.push(`height:${clamp(options.height, SIZE_MIN, SIZE_MAX)}`);
  if (options.width) segments.push(`width:${clamp(options.width, SIZE_MIN, SIZE_MAX)}`);
  if (options.width || options.height) {
    if (keepOriginal) {
      if (options.resize) segments.push(`resize:${options.resize}`);
    } else {
      const type =
        options.resize === 'contain' ? 'fit' : options.resize === 'fill' ? 'force' : 'fill';
      segments.push(`resizing_type:${type}`);
    }
  }
  if (options.quality) segments.push(`quality:${options.quality}`);
  if (options.format && options.format !== 'origin') segments.push(`format:${options.format}`);
  return segments;
}

/** upstream setTransformationsFromString: a signed token's `transformations` claim. */
export function optionsFromString(text: string): TransformOptions {
  const out: TransformOptions = {};
  for (const part of text.split(',')) {
    const [name, value] = part.split(':');
    if (!value) continue;
    if (name === 'width' || name === 'height' || name === 'quality')
      out[name] = parseInt(value, 10);
    if (name === 'resize') out.resize = value as TransformOptions['resize'];
    if (name === 'format') out.format = value as TransformOptions['format'];
  }
  return out;
}

const KEEPABLE = new Set(['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff']);

function sourceError(message: string): StorageError {
  return ERRORS.imageProcessing(400, message);
}

/** Output format: explicit webp/avif, `origin`, or the best the client Accepts (imgproxy detection). */
function outputFormat(options: TransformOptions, accept: string, source: string, avif: boolean) {
  if (options.format === 'webp' || options.format === 'avif') return options.format;
  if (options.format !== 'origin') {
    if (avif && accept.includes('image/avif')) return 'avif';
    if (accept.includes('image/webp')) return 'webp';
  }
  return KEEPABLE.has(source) ? source : 'png';
}

/** Transforms the object's bytes and answers with the object's headers plus X-Transformations. */
export async function renderImage(
  { req, url, deps }: RouteArgs,
  row: ObjectRow,
  transform: TransformOptions | string,
  expires?: string,
): Promise<Response> {
  const options = typeof transform === 'string' ? optionsFromString(transform) : transform;
  const ref = { bucket: row.bucket_id, key: row.name, version: row.version ?? '' };
  const size = row.version ? await deps.files.size(ref) : null;
  if (size === null) throw ERRORS.noSuchKey();
  if (size > MAX_SOURCE_BYTES) throw sourceError('The source image file is too large to process');
  const input = await deps.files.readAll(ref);
  const bucket = await findBucket(deps.db, row.bucket_id);

  let image: Sharp;
  let meta: Metadata;
  try {
    image = sharp(input, { limitInputPixels: false, failOn: 'error' });
    meta = await image.metadata();
  } catch {
    throw sourceError('The source image is invalid or unsupported for rendering');
  }
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_SOURCE_PIXELS) {
    throw sourceError('The source image resolution is too large to process');
  }
  const format = outputFormat(
    options,
    req.headers.get('accept') ?? '',
    meta.format ?? '',
    bucket.avif_autodetection === true,
  );
  const quality = options.quality ?? DEFAULT_QUALITY;
  const width = options.width ? clamp(options.width, SIZE_MIN, SIZE_MAX) : undefined;
  const height = options.height ? clamp(options.height, SIZE_MIN, SIZE_MAX) : undefined;
  let output: Buffer;
  try {
    // imgproxy applies EXIF orientation and never enlarges by default.
    let pipeline = image.rotate();
    if (width || height) {
      const fit =
        options.resize === 'contain' ? 'inside' : options.resize === 'fill' ? 'fill' : 'cover';
      pipeline = pipeline.resize({ width, height, fit, withoutEnlargement: true });
    }
    pipeline =
      format === 'jpeg'
        ? pipeline.jpeg({ quality })
        : format === 'webp'
          ? pipeline.webp({ quality })
          : format === 'avif'
            ? pipeline.avif({ quality })
            : format === 'png'
              ? pipeline.png()
              : pipeline.toFormat(format as keyof FormatEnum);
    output = await pipeline.toBuffer();
  } catch {
    throw ERRORS.imageProcessing(500, 'Internal error');
  }

  const headers = assetHeaders(row, {
    download: downloadParam(url),
    expires,
    ifNoneMatch: req.headers.get('if-none-match'),
  });
  headers.set('Content-Type', `image/${format}`);
  headers.set('Content-Length', String(output.length));
  const segments = transformSegments(options);
  if (segments.length) headers.set('X-Transformations', segments.join(','));
  return new Response(req.method === 'HEAD' ? null : new Uint8Array(output), {
    status: 200,
    headers,
  });
}

function queryOptions(url: URL): TransformOptions {
  return parseTransformOptions(Object.fromEntries(url.searchParams.entries()));
}

/** GET `/render/image/authenticated/{b}/{p}`: the caller's SELECT policy decides. */
export const renderAuthenticatedImage: RouteHandler = async (args) => {
  const options = queryOptions(args.url);
  const caller = await callerOf(args.req);
  const row = await findObject(
    args.deps.db,
    args.req,
    caller,
    args.params.bucket!,
    args.params.key!,
    'storage.render.image_authenticated',
  );
  return renderImage(args, row, options);
};

/** GET `/render/image/public/{b}/{p}`: public buckets only, no token, RLS skipped. */
export const renderPublicImage: RouteHandler = async (args) => {
  const options = queryOptions(args.url);
  const bucket = await findBucket(args.deps.db, args.params.bucket!);
  if (!bucket.public) throw ERRORS.noSuchBucket();
  const row = await findObject(args.deps.db, args.req, null, bucket.id, args.params.key!, '');
  return renderImage(args, row, options);
};
