// Reads an upload request (multipart with an empty-named file part, or a raw body) and stores the object.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/types.js';
import { asCaller, ownerUuid, type Scope } from './caller.js';
import { ERRORS } from './errors.js';
import type { FileStore, StoredFile } from './files.js';
import { validateMimeType } from './limits.js';
import { SQL } from './sql.js';

/** Upstream MAX_CUSTOM_METADATA_SIZE. */
const MAX_USER_METADATA = 1024 * 1024;

export interface UploadBody {
  body: ReadableStream<Uint8Array> | Uint8Array;
  mimeType: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
  /** Declared Content-Length of a raw body (upstream rejects an oversized one before reading). */
  declaredLength: number | null;
}

/**
 * Reads and discards a refused body, so the client sees the error instead of a reset
 * connection (cancelling would destroy the socket under a keep-alive client).
 */
async function drain(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  while (!(await reader.read()).done) {
    // discard
  }
}

/** Upstream parseUserMetadata: base64 JSON in `x-metadata`; bad values are a 400. */
function parseUserMetadata(header: string): Record<string, unknown> {
  if (Buffer.byteLength(header) > MAX_USER_METADATA) throw ERRORS.entityTooLarge('user_metadata');
  try {
    const value: unknown = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // fall through
  }
  throw ERRORS.invalidRequest('Invalid metadata header value');
}

/**
 * supabase/storage fileUploadFromRequest: multipart takes the first file part (the client
 * names it ""), `cacheControl` becomes `max-age=<n>`, `metadata` is JSON and `contentType`
 * overrides the part's type; a raw body takes Content-Type, Cache-Control and x-metadata.
 */
export async function readUploadBody(req: Request, maxBytes = Infinity): Promise<UploadBody> {
  const contentType = req.headers.get('content-type') ?? '';
  if (contentType.startsWith('multipart/form-data')) {
    // The form is parsed in memory, so a body that cannot hold a file within the limit (plus
    // room for the ≤ 1 MiB metadata field and boundaries) is refused before it is read.
    const length = Number(req.headers.get('content-length'));
    if (Number.isFinite(length) && length > maxBytes + MAX_USER_METADATA + 64 * 1024) {
      if (req.body) await drain(req.body);
      throw ERRORS.entityTooLarge();
    }
    let form: FormData;
    try {
      form = await req.formData();
    } catch {
      throw ERRORS.noContentProvided();
    }
    let file: File | null = null;
    for (const [, value] of form.entries()) {
      if (typeof value !== 'string') {
        file = value;
        break;
      }
    }
    if (!file) throw ERRORS.noContentProvided();
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : null;
    };
    const cacheTime = field('cacheControl');
    const metadata = field('metadata') ?? field('userMetadata');
    let userMetadata: Record<string, unknown> | null = null;
    if (metadata !== null) {
      if (Buffer.byteLength(metadata) > MAX_USER_METADATA) {
        throw ERRORS.entityTooLarge('user_metadata');
      }
      try {
        const parsed: unknown = JSON.parse(metadata);
        if (parsed && typeof parsed === 'object') userMetadata = parsed as Record<string, unknown>;
      } catch {
        // Upstream ignores unparsable multipart metadata.
      }
    }
    return {
      body: new Uint8Array(await file.arrayBuffer()),
      mimeType: field('contentType') || file.type || 'application/octet-stream',
      cacheControl: cacheTime ? `max-age=${cacheTime}` : 'no-cache',
      // Upstream's uploader stores `{ ...request.userMetadata }`: `{}` when none was sent.
      userMetadata: { ...userMetadata },
      declaredLength: null,
    };
  }
  if (!req.body) throw ERRORS.noContentProvided();
  const length = Number(req.headers.get('content-length'));
  const metadataHeader = req.headers.get('x-metadata');
  return {
    body: req.body,
    mimeType: contentType || 'application/octet-stream',
    cacheControl: req.headers.get('cache-control') ?? 'no-cache',
    userMetadata: metadataHeader ? parseUserMetadata(metadataHeader) : {},
    declaredLength: Number.isFinite(length) && length >= 0 ? length : null,
  };
}

/** Bytes an upload to this key may have: the bucket's limit under the global one; 0 for placeholders. */
export function uploadLimit(
  bucket: { file_size_limit: string | null },
  key: string,
  globalLimit: number,
): number {
  // An ".emptyFolderPlaceholder" may only be empty (upstream isEmptyFolder).
  if (key.endsWith('.emptyFolderPlaceholder')) return 0;
  const bucketLimit = bucket.file_size_limit === null ? null : Number(bucket.file_size_limit);
  return bucketLimit ? Math.min(bucketLimit, globalLimit) : globalLimit;
}

export interface StoreObjectOptions {
  db: Db;
  files: FileStore;
  scope: Scope;
  bucket: { id: string; file_size_limit: string | null; allowed_mime_types: string[] | null };
  key: string;
  upload: UploadBody;
  upsert: boolean;
  globalLimit: number;
  /** Owner of the new row: the caller, or the signer of a signed upload URL. */
  owner: string | undefined;
}

export interface StoredObject {
  id: string;
  key: string;
  version: string;
}

/**
 * Writes the bytes to a temp file, then in one transaction as the caller inserts (or upserts)
 * the row and renames the file into place. The row only ever names a complete file; a failed
 * transaction removes the new file, and a replaced version's file is removed after commit.
 */
export async function storeObject(opts: StoreObjectOptions): Promise<StoredObject> {
  const { db, files, bucket, key, upload } = opts;
  // An ".emptyFolderPlaceholder" skips the mime check (upstream isEmptyFolder).
  const placeholder = key.endsWith('.emptyFolderPlaceholder');
  if (!placeholder && bucket.allowed_mime_types?.length) {
    validateMimeType(upload.mimeType, bucket.allowed_mime_types);
  }
  const limit = uploadLimit(bucket, key, opts.globalLimit);
  if (upload.declaredLength !== null && upload.declaredLength > limit) {
    if (!(upload.body instanceof Uint8Array)) await drain(upload.body);
    throw ERRORS.entityTooLarge();
  }
  const stored: StoredFile = await files.writeTemp(upload.body, limit);
  const version = randomUUID();
  const id = randomUUID();
  const metadata = {
    eTag: stored.eTag,
    size: stored.size,
    mimetype: upload.mimeType,
    cacheControl: upload.cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: stored.size,
    httpStatusCode: 200,
  };
  const params = [
    id,
    bucket.id,
    key,
    ownerUuid(opts.owner),
    opts.owner ?? null,
    JSON.stringify(metadata),
    upload.userMetadata === null ? null : JSON.stringify(upload.userMetadata),
    version,
  ];
  let committed = false;
  try {
    const result = await asCaller(db, opts.scope, async (tx) => {
      let rowId: string = id;
      let previous: string | null = null;
      if (opts.upsert) {
        const { rows } = await tx.query<{ id: string; previous_version: string | null }>(
          SQL['upsert-object'],
          params,
        );
        rowId = rows[0]?.id ?? id;
        previous = rows[0]?.previous_version ?? null;
      } else {
        await tx.query(SQL['insert-object'], params);
      }
      await files.commit(stored, bucket.id, key, version);
      committed = true;
      return { rowId, previous };
    });
    if (result.previous && result.previous !== version) {
      await files.remove({ bucket: bucket.id, key, version: result.previous });
    }
    return { id: result.rowId, key: `${bucket.id}/${key}`, version };
  } catch (err) {
    if (committed) await files.remove({ bucket: bucket.id, key, version });
    else await files.discard(stored);
    if ((err as { code?: string }).code === '23505') throw ERRORS.keyAlreadyExists();
    throw err;
  }
}
