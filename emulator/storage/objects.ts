// Object routes: upload/update, download (authenticated and public), HEAD, info and remove.
import type { Db } from '../db/types.js';
import { findBucket, type BucketRow } from './buckets.js';
import { asCaller, callerOf, type Caller } from './caller.js';
import {
  assetHeaders,
  downloadParam,
  objectResponse,
  requireVersion,
  servedContentType,
  type ObjectRow,
} from './download.js';
import { ERRORS } from './errors.js';
import { isoTime, mustBeValidKey } from './limits.js';
import { json, readJson, type RouteArgs, type RouteHandler } from './route.js';
import { SQL } from './sql.js';
import { readUploadBody, storeObject, uploadLimit } from './upload.js';

/** Reads one object row as the caller (SELECT policy), or elevated when `caller` is null. */
export async function findObject(
  db: Db,
  req: Request,
  caller: Caller | null,
  bucket: string,
  key: string,
  operation: string,
): Promise<ObjectRow> {
  const query = (q: Pick<Db, 'query'>) => q.query<ObjectRow>(SQL['find-object'], [bucket, key]);
  const { rows } = caller ? await asCaller(db, { caller, req, operation }, query) : await query(db);
  return requireVersion(rows[0]);
}

/** The object row as upstream's `RETURNING *` / objectSchema prints it. */
export function objectJson(row: ObjectRow): Record<string, unknown> {
  return {
    id: row.id,
    bucket_id: row.bucket_id,
    name: row.name,
    owner: row.owner ?? '',
    owner_id: row.owner_id ?? '',
    version: row.version ?? '',
    metadata: row.metadata,
    user_metadata: row.user_metadata,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    last_accessed_at: isoTime(row.last_accessed_at),
  };
}

export const uploadObject: RouteHandler = async ({ req, params, deps }) => {
  const caller = await callerOf(req);
  const key = params.key;
  mustBeValidKey(key);
  const bucket = await findBucket(deps.db, params.bucket!);
  const upload = await readUploadBody(req, uploadLimit(bucket, key, deps.fileSizeLimit));
  // PUT is an upsert upstream (updateObject route passes isUpsert: true).
  const isUpdate = req.method === 'PUT';
  const stored = await storeObject({
    db: deps.db,
    files: deps.files,
    scope: {
      caller,
      req,
      operation: isUpdate ? 'storage.object.upload_update' : 'storage.object.upload',
    },
    bucket,
    key,
    upload,
    upsert: isUpdate || req.headers.get('x-upsert') === 'true',
    globalLimit: deps.fileSizeLimit,
    owner: caller.sub,
  });
  return json({ Id: stored.id, Key: stored.key });
};

/**
 * GET `/object/{b}/{p}` and `/object/authenticated/{b}/{p}` (upstream getObject.ts): the bucket
 * is looked up elevated; a public bucket's object is read elevated too (no RLS), a private
 * one's as the caller. The plain route allows a missing or bad token (`allowInvalidJwt`): the
 * caller is then anonymous and only public buckets answer, others are NoSuchBucket.
 */
function getObject(allowInvalidJwt: boolean): RouteHandler {
  return async ({ req, url, params, deps }) => {
    const caller = await callerOf(req, allowInvalidJwt);
    const bucket = await findBucket(deps.db, params.bucket!);
    if (!caller.jwt && !bucket.public) throw ERRORS.noSuchBucket();
    const row = await findObject(
      deps.db,
      req,
      bucket.public ? null : caller,
      bucket.id,
      params.key!,
      'storage.object.get_authenticated',
    );
    return objectResponse(req, row, deps.files, { download: downloadParam(url) });
  };
}

/** GET `/object/{b}/{p}`, what supabase-js `download()` sends: a token is optional. */
export const getObjectOptionalJwt = getObject(true);

/** GET `/object/authenticated/{b}/{p}`: a valid token is required. */
export const getAuthenticatedObject = getObject(false);

async function publicBucket(db: Db, id: string): Promise<BucketRow> {
  const bucket = await findBucket(db, id);
  if (!bucket.public) throw ERRORS.noSuchBucket();
  return bucket;
}

/** GET/HEAD `/object/public/{b}/{p}`: no token needed, RLS skipped, bucket must be public. */
export const getPublicObject: RouteHandler = async ({ req, url, params, deps }) => {
  await publicBucket(deps.db, params.bucket!);
  const row = await findObject(deps.db, req, null, params.bucket!, params.key!, '');
  return objectResponse(req, row, deps.files, { download: downloadParam(url) });
};

/**
 * The row behind `/object/info/…` and HEAD `/object/…` (upstream getObjectInfo.ts): public
 * buckets (and the public route) are read elevated, others as the caller; an anonymous caller
 * only reaches public buckets.
 */
async function infoRow({ req, params, deps }: RouteArgs, publicRoute: boolean): Promise<ObjectRow> {
  const caller = await callerOf(req, true);
  const bucket = await findBucket(deps.db, params.bucket!);
  if ((!caller.jwt || publicRoute) && !bucket.public) throw ERRORS.noSuchBucket();
  const elevated = bucket.public || publicRoute;
  return findObject(
    deps.db,
    req,
    elevated ? null : caller,
    bucket.id,
    params.key!,
    publicRoute ? 'storage.object.info_public' : 'object.get_authenticated_info',
  );
}

/** GET `/object/info[/authenticated|/public]/{b}/{p}` → upstream InfoRenderer's JSON. */
export function objectInfo(publicRoute: boolean): RouteHandler {
  return async (args: RouteArgs) => {
    const row = await infoRow(args, publicRoute);
    const meta = row.metadata ?? {};
    const headers = assetHeaders(row, {});
    headers.delete('Accept-Ranges');
    headers.delete('X-Robots-Tag');
    headers.set('Content-Type', 'application/json');
    return new Response(
      JSON.stringify({
        id: row.id,
        name: row.name,
        version: row.version,
        bucket_id: row.bucket_id,
        size: meta.size ?? null,
        content_type: meta.mimetype ?? null,
        cache_control: meta.cacheControl ?? null,
        etag: meta.eTag ?? null,
        metadata: row.user_metadata,
        last_modified: isoTime(row.updated_at),
        created_at: isoTime(row.created_at),
      }),
      { status: 200, headers },
    );
  };
}

/** HEAD `/object[/authenticated|/public]/{b}/{p}` → the object's headers from its metadata (HeadRenderer). */
export function objectHead(publicRoute: boolean): RouteHandler {
  return async (args: RouteArgs) => {
    const row = await infoRow(args, publicRoute);
    const meta = row.metadata ?? {};
    const headers = assetHeaders(row, {
      head: true,
      ifNoneMatch: args.req.headers.get('if-none-match'),
    });
    headers.set(
      'Content-Type',
      servedContentType(typeof meta.mimetype === 'string' ? meta.mimetype : undefined),
    );
    if (typeof meta.contentLength === 'number')
      headers.set('Content-Length', String(meta.contentLength));
    return new Response(null, { status: 200, headers });
  };
}

/** Deletes rows as the caller (SELECT + DELETE; invisible rows are skipped), then their files. */
async function removeObjects(args: RouteArgs, names: string[], operation: string) {
  const { req, params, deps } = args;
  const caller = await callerOf(req);
  const bucket = params.bucket!;
  const { rows } = await asCaller(deps.db, { caller, req, operation }, (tx) =>
    tx.query<ObjectRow>(SQL['delete-objects'], [bucket, names]),
  );
  for (const row of rows) {
    if (row.version) await deps.files.remove({ bucket, key: row.name, version: row.version });
  }
  return rows;
}

/** DELETE `/object/{b}` `{prefixes}` → the deleted rows. Entries may be `{path, versionId}` (≥2.110). */
export const deleteObjects: RouteHandler = async (args) => {
  const body = await readJson(args.req);
  const prefixes = body.prefixes;
  if (!Array.isArray(prefixes))
    throw ERRORS.invalidRequest("body must have required property 'prefixes'");
  if (prefixes.length < 1 || prefixes.length > 1000) {
    throw ERRORS.invalidRequest('body/prefixes must NOT have fewer than 1 items');
  }
  const names = prefixes.map((p: unknown) =>
    typeof p === 'string' ? p : String((p as { path?: unknown })?.path ?? ''),
  );
  const rows = await removeObjects(args, names, 'storage.object.delete_many');
  return json(rows.map(objectJson));
};

/** DELETE `/object/{b}/{p}` (upstream deleteObject): one object or NoSuchKey. */
export const deleteObject: RouteHandler = async (args) => {
  const rows = await removeObjects(args, [args.params.key!], 'storage.object.delete');
  if (!rows[0]) throw ERRORS.noSuchKey();
  return json({ message: 'Successfully deleted' });
};
