// Bucket routes (`/bucket…`): list, get, create, update, empty, delete — authorised by RLS on storage.buckets.
import type { Db } from '../db/types.js';
import { asCaller, callerOf, ownerUuid } from './caller.js';
import { ERRORS, StorageError } from './errors.js';
import {
  checkAllowedMimeTypes,
  isoTime,
  mustBeValidBucketName,
  parseBucketSizeLimit,
} from './limits.js';
import { json, readJson, type RouteHandler } from './route.js';
import { SQL } from './sql.js';

export interface BucketRow {
  id: string;
  name: string;
  owner: string | null;
  owner_id: string | null;
  public: boolean | null;
  avif_autodetection: boolean | null;
  file_size_limit: string | null;
  allowed_mime_types: string[] | null;
  type: string;
  created_at: string;
  updated_at: string;
}

/** The Bucket shape of upstream's bucketSchema; `type` only where upstream selects it (list). */
export function bucketJson(row: BucketRow, withType: boolean): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    // fast-json-stringify prints a null `type: string` property as "".
    owner: row.owner ?? '',
    public: row.public ?? false,
    ...(withType ? { type: row.type } : {}),
    file_size_limit: row.file_size_limit === null ? null : Number(row.file_size_limit),
    allowed_mime_types: row.allowed_mime_types,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
  };
}

/** Bucket lookup with elevated rights, as upstream's `asSuperUser().findBucket` (contract §3.3). */
export async function findBucket(db: Db, id: string): Promise<BucketRow> {
  const { rows } = await db.query<BucketRow>(SQL['find-bucket'], [id]);
  if (!rows[0]) throw ERRORS.noSuchBucket();
  return rows[0];
}

const SORT_COLUMNS = new Set(['id', 'name', 'created_at', 'updated_at']);

export const listBuckets: RouteHandler = async ({ req, url, deps }) => {
  const caller = await callerOf(req);
  const q = url.searchParams;
  const int = (name: string, min: number) => {
    const raw = q.get(name);
    if (raw === null) return null;
    if (!/^\d+$/.test(raw) || Number(raw) < min) {
      throw ERRORS.invalidRequest(`querystring/${name} must be >= ${min}`);
    }
    return Number(raw);
  };
  const limit = int('limit', 1);
  const offset = int('offset', 0);
  const sortColumn = q.get('sortColumn');
  if (sortColumn !== null && !SORT_COLUMNS.has(sortColumn)) {
    throw ERRORS.invalidRequest(
      'querystring/sortColumn must be equal to one of the allowed values',
    );
  }
  const order = q.get('sortOrder')?.toLowerCase() === 'desc' ? 'desc' : 'asc';
  const search = q.get('search');
  const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => '\\' + c)}%` : null;
  const text = SQL['list-buckets'].replace(
    '/*order*/',
    sortColumn ? `order by ${sortColumn} ${order}` : '',
  );
  const rows = await asCaller(deps.db, { caller, req, operation: 'storage.bucket.list' }, (tx) =>
    tx.query<BucketRow>(text, [pattern, limit, offset]),
  );
  return json(rows.rows.map((row) => bucketJson(row, true)));
};

export const getBucket: RouteHandler = async ({ req, params, deps }) => {
  const caller = await callerOf(req);
  const { rows } = await asCaller(deps.db, { caller, req, operation: 'storage.bucket.get' }, (tx) =>
    tx.query<BucketRow>(SQL['find-bucket'], [params.bucket]),
  );
  if (!rows[0]) throw ERRORS.noSuchBucket();
  return json(bucketJson(rows[0], false));
};

export const createBucket: RouteHandler = async ({ req, deps }) => {
  const caller = await callerOf(req);
  const body = await readJson(req);
  if (body.name === undefined)
    throw ERRORS.invalidRequest("body must have required property 'name'");
  const name = body.name;
  mustBeValidBucketName(name);
  const id = body.id === undefined || body.id === '' ? name : body.id;
  mustBeValidBucketName(id);
  if (body.type !== undefined && body.type !== 'STANDARD') {
    // Analytics (Iceberg) buckets need a catalog the emulator does not have.
    throw new StorageError(
      409,
      'FeatureNotEnabled',
      'The feature Iceberg buckets are not enabled for this tenant is not enabled for this resource',
    );
  }
  if (body.public !== undefined && typeof body.public !== 'boolean') {
    throw ERRORS.invalidRequest('body/public must be boolean');
  }
  const sizeLimit =
    body.file_size_limit === undefined
      ? null
      : parseBucketSizeLimit(body.file_size_limit, deps.fileSizeLimit);
  const mimeTypes = checkAllowedMimeTypes(body.allowed_mime_types)?.filter(Boolean) ?? null;
  try {
    await asCaller(deps.db, { caller, req, operation: 'storage.bucket.create' }, (tx) =>
      tx.query(SQL['create-bucket'], [
        id,
        name,
        ownerUuid(caller.sub),
        caller.sub ?? null,
        body.public ?? false,
        sizeLimit,
        mimeTypes,
      ]),
    );
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw ERRORS.bucketAlreadyExists();
    throw err;
  }
  return json({ name });
};

export const updateBucket: RouteHandler = async ({ req, params, deps }) => {
  const caller = await callerOf(req);
  const id = params.bucket!;
  mustBeValidBucketName(id);
  const body = await readJson(req);
  const hasPublic = body.public !== undefined;
  const hasLimit = body.file_size_limit !== undefined;
  const hasMime = body.allowed_mime_types !== undefined;
  if (!hasPublic && !hasLimit && !hasMime) throw ERRORS.noContentProvided();
  if (hasPublic && typeof body.public !== 'boolean') {
    throw ERRORS.invalidRequest('body/public must be boolean');
  }
  const sizeLimit = hasLimit
    ? parseBucketSizeLimit(body.file_size_limit, deps.fileSizeLimit)
    : null;
  const mimeTypes = hasMime
    ? (checkAllowedMimeTypes(body.allowed_mime_types)?.filter(Boolean) ?? null)
    : null;
  const { rows } = await asCaller(
    deps.db,
    { caller, req, operation: 'storage.bucket.update' },
    (tx) =>
      tx.query(SQL['update-bucket'], [
        id,
        body.public ?? null,
        sizeLimit,
        mimeTypes,
        hasPublic,
        hasLimit,
        hasMime,
      ]),
  );
  if (!rows[0]) throw ERRORS.noSuchBucket();
  return json({ message: 'Successfully updated' });
};

export const emptyBucket: RouteHandler = async ({ req, params, deps }) => {
  const caller = await callerOf(req);
  const id = params.bucket!;
  const scope = { caller, req, operation: 'storage.bucket.empty' };
  const { rows } = await asCaller(deps.db, scope, (tx) => tx.query(SQL['find-bucket'], [id]));
  if (!rows[0]) throw ERRORS.noSuchBucket();
  // Upstream queues an admin job that removes every object; the emulator does it before answering.
  const removed = await deps.db.transaction(async (tx) => {
    await tx.query(SQL['allow-delete']);
    const all = await tx.query<{ name: string; version: string | null }>(SQL['delete-objects'], [
      id,
      null,
    ]);
    return all.rows;
  });
  for (const row of removed) {
    if (row.version) await deps.files.remove({ bucket: id, key: row.name, version: row.version });
  }
  return json({ message: 'Empty bucket has been queued. Completion may take up to an hour.' });
};

export const deleteBucket: RouteHandler = async ({ req, params, deps }) => {
  const caller = await callerOf(req);
  const id = params.bucket!;
  await findBucket(deps.db, id);
  const { rows } = await deps.db.query<{ count: number }>(SQL['count-objects'], [id]);
  if ((rows[0]?.count ?? 0) > 0) throw ERRORS.bucketNotEmpty();
  const deleted = await asCaller(
    deps.db,
    { caller, req, operation: 'storage.bucket.delete' },
    (tx) => tx.query(SQL['delete-bucket'], [id]),
  );
  if (deleted.affectedRows === 0) throw ERRORS.noSuchBucket();
  return json({ message: 'Successfully deleted' });
};
