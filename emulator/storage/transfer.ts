// POST `/object/move` and `/object/copy`: new versions of the bytes, the row changed as the caller.
import { randomUUID } from 'node:crypto';
import { findBucket } from './buckets.js';
import { asCaller, callerOf, ownerUuid } from './caller.js';
import { ERRORS } from './errors.js';
import { mustBeValidKey } from './limits.js';
import { findObject, objectJson } from './objects.js';
import { json, readJson, requireString, type RouteHandler } from './route.js';
import { SQL } from './sql.js';
import { storeObject } from './upload.js';

/** POST `/object/move`: one UPDATE as the caller (SELECT + UPDATE); the bytes move to a new version. */
export const moveObject: RouteHandler = async ({ req, deps }) => {
  const caller = await callerOf(req);
  const body = await readJson(req);
  const bucketId = requireString(body, 'bucketId');
  const sourceKey = requireString(body, 'sourceKey');
  const destinationKey = requireString(body, 'destinationKey');
  const destinationBucket =
    typeof body.destinationBucket === 'string' && body.destinationBucket
      ? body.destinationBucket
      : bucketId;
  mustBeValidKey(destinationKey);
  const scope = { caller, req, operation: 'storage.object.move' };
  const source = await findObject(deps.db, req, caller, bucketId, sourceKey, scope.operation);
  if (destinationBucket !== bucketId) await findBucket(deps.db, destinationBucket);
  const version = randomUUID();
  const from = { bucket: bucketId, key: sourceKey, version: source.version ?? '' };
  const to = { bucket: destinationBucket, key: destinationKey, version };
  await deps.files.copy(from, to);
  let moved: { id: string } | undefined;
  try {
    moved = await asCaller(deps.db, scope, async (tx) => {
      const { rows } = await tx.query<{ id: string }>(SQL['move-object'], [
        bucketId,
        sourceKey,
        destinationBucket,
        destinationKey,
        ownerUuid(caller.sub),
        caller.sub ?? null,
        version,
        new Date().toISOString(),
      ]);
      return rows[0];
    });
  } catch (err) {
    await deps.files.remove(to);
    if ((err as { code?: string }).code === '23505') throw ERRORS.resourceAlreadyExists();
    throw err;
  }
  if (!moved) {
    await deps.files.remove(to);
    throw ERRORS.noSuchKey();
  }
  await deps.files.remove(from);
  return json({
    message: 'Successfully moved',
    Id: moved.id,
    Key: `${destinationBucket}/${destinationKey}`,
  });
};

/** POST `/object/copy`: SELECT on the source, INSERT (or upsert with x-upsert) of the destination. */
export const copyObject: RouteHandler = async ({ req, deps }) => {
  const caller = await callerOf(req);
  const body = await readJson(req);
  const bucketId = requireString(body, 'bucketId');
  const sourceKey = requireString(body, 'sourceKey');
  const destinationKey = requireString(body, 'destinationKey');
  const destinationBucket =
    typeof body.destinationBucket === 'string' && body.destinationBucket
      ? body.destinationBucket
      : bucketId;
  mustBeValidKey(destinationKey);
  const copyMetadata = body.copyMetadata !== false;
  const scope = { caller, req, operation: 'storage.object.copy' };
  const source = await findObject(deps.db, req, caller, bucketId, sourceKey, scope.operation);
  const bucket = await findBucket(deps.db, destinationBucket);
  const meta = { ...(source.metadata ?? {}) };
  if (!copyMetadata && body.metadata && typeof body.metadata === 'object') {
    const given = body.metadata as { cacheControl?: unknown; mimetype?: unknown };
    if (typeof given.cacheControl === 'string') meta.cacheControl = given.cacheControl;
    if (typeof given.mimetype === 'string') meta.mimetype = given.mimetype;
  }
  const xMetadata = req.headers.get('x-metadata');
  const userMetadata = copyMetadata
    ? source.user_metadata
    : xMetadata
      ? (JSON.parse(Buffer.from(xMetadata, 'base64').toString('utf8')) as Record<string, unknown>)
      : null;
  const bytes = await deps.files.readAll({
    bucket: bucketId,
    key: sourceKey,
    version: source.version ?? '',
  });
  const stored = await storeObject({
    db: deps.db,
    files: deps.files,
    scope,
    // Copies are not re-validated against the destination's size and mime limits upstream.
    bucket: { id: bucket.id, file_size_limit: null, allowed_mime_types: null },
    key: destinationKey,
    upload: {
      body: bytes,
      mimeType: typeof meta.mimetype === 'string' ? meta.mimetype : 'application/octet-stream',
      cacheControl: typeof meta.cacheControl === 'string' ? meta.cacheControl : 'no-cache',
      userMetadata,
      declaredLength: null,
    },
    upsert: req.headers.get('x-upsert') === 'true',
    globalLimit: Number.MAX_SAFE_INTEGER,
    owner: caller.sub,
  });
  const row = await findObject(deps.db, req, null, destinationBucket, destinationKey, '');
  return json({ Id: stored.id, Key: stored.key, ...objectJson(row) });
};
