// Signed URLs: download tokens (single and batch), GET of a signed URL, and signed upload URLs.
import { randomUUID } from 'node:crypto';
import { signJwt } from '../keys.js';
import { findBucket } from './buckets.js';
import { asCaller, callerOf, ownerUuid, verifyToken, type Caller, type Scope } from './caller.js';
import { downloadParam, objectResponse } from './download.js';
import { ERRORS } from './errors.js';
import { mustBeValidKey } from './limits.js';
import { findObject } from './objects.js';
import { transformSegments, parseTransformOptions, renderImage } from './render.js';
import { json, optionalInteger, readJson, type RouteHandler } from './route.js';
import { SQL } from './sql.js';
import { readUploadBody, storeObject, uploadLimit } from './upload.js';

/** Hosted signed upload URLs are valid for two hours. */
const UPLOAD_URL_EXPIRY = 7200;

/** The identity elevated writes run as: service_role bypasses RLS (upstream asSuperUser). */
const SERVICE: Caller = {
  role: 'service_role',
  claims: { role: 'service_role' },
  jwt: '',
  sub: undefined,
};

async function signToken(claims: Record<string, unknown>, expiresIn: number): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  return signJwt({ ...claims, iat, exp: iat + expiresIn });
}

function expiresIn(body: Record<string, unknown>): number {
  const value = optionalInteger(body, 'expiresIn', 1);
  if (value === undefined)
    throw ERRORS.invalidRequest("body must have required property 'expiresIn'");
  return value;
}

/** POST `/object/sign/{b}/{p}` `{expiresIn, transform?}` — needs SELECT on the object. */
export const signObject: RouteHandler = async ({ req, params, deps }) => {
  const caller = await callerOf(req);
  const body = await readJson(req);
  const seconds = expiresIn(body);
  const bucket = params.bucket!;
  const key = params.key!;
  await findObject(deps.db, req, caller, bucket, key, 'storage.object.sign');
  const claims: Record<string, unknown> = { url: `${bucket}/${key}`, scope: 'download' };
  let prefix = '/object/sign/';
  if (body.transform && typeof body.transform === 'object') {
    const options = parseTransformOptions(
      body.transform as Record<string, unknown>,
      'body/transform',
    );
    const transformations = transformSegments(options, true).join(',');
    if (transformations) {
      claims.transformations = transformations;
      prefix = '/render/image/sign/';
    }
  }
  const token = await signToken(claims, seconds);
  return json({ signedURL: `${prefix}${bucket}/${key}?token=${token}` });
};

/** POST `/object/sign/{b}` `{expiresIn, paths}` → one entry per path, null URL where invisible. */
export const signObjects: RouteHandler = async ({ req, params, deps }) => {
  const caller = await callerOf(req);
  const body = await readJson(req);
  const seconds = expiresIn(body);
  if (!Array.isArray(body.paths) || body.paths.some((p) => typeof p !== 'string')) {
    throw ERRORS.invalidRequest("body must have required property 'paths'");
  }
  const paths = body.paths as string[];
  const bucket = params.bucket!;
  const { rows } = await asCaller(
    deps.db,
    { caller, req, operation: 'storage.object.sign_many' },
    (tx) => tx.query<{ name: string }>(SQL['find-objects'], [bucket, paths]),
  );
  const visible = new Set(rows.map((r) => r.name));
  const out = await Promise.all(
    paths.map(async (path) => {
      if (!visible.has(path)) {
        return {
          error: 'Either the object does not exist or you do not have access to it',
          path,
          signedURL: null,
        };
      }
      const token = await signToken({ url: `${bucket}/${path}`, scope: 'download' }, seconds);
      return { error: null, path, signedURL: `/object/sign/${bucket}/${path}?token=${token}` };
    }),
  );
  return json(out);
};

interface SignedClaims {
  url?: unknown;
  scope?: unknown;
  upsert?: unknown;
  owner?: unknown;
  transformations?: unknown;
  exp?: number;
}

/** upstream verifyObjectSignature: valid JWT, right scope, right path. */
async function verifySignedUrl(
  url: URL,
  bucket: string,
  key: string,
  scope: 'download' | 'upload',
): Promise<SignedClaims> {
  const token = url.searchParams.get('token');
  if (!token) throw ERRORS.invalidRequest("querystring must have required property 'token'");
  const claims = (await verifyToken(token)) as SignedClaims;
  const hasScope =
    scope === 'upload'
      ? claims.scope === 'upload' || (claims.scope === undefined && 'upsert' in claims)
      : claims.scope === 'download' || (claims.scope === undefined && !('upsert' in claims));
  if (!hasScope) throw ERRORS.invalidSignature(`Token is not scoped for ${scope}`);
  if (claims.url !== `${bucket}/${key}`) throw ERRORS.invalidSignature();
  return claims;
}

/** GET `/object/sign/{b}/{p}?token=` — no Authorization needed; the token is the grant. */
export const getSignedObject: RouteHandler = async ({ req, url, params, deps }) => {
  const bucket = params.bucket!;
  const key = params.key!;
  const claims = await verifySignedUrl(url, bucket, key, 'download');
  const row = await findObject(deps.db, req, null, bucket, key, '');
  return objectResponse(req, row, deps.files, {
    download: downloadParam(url),
    expires: new Date((claims.exp ?? 0) * 1000).toUTCString(),
  });
};

/** GET `/render/image/sign/{b}/{p}?token=` — transformations come from the token. */
export const renderSignedImage: RouteHandler = async (args) => {
  const { req, url, params, deps } = args;
  const claims = await verifySignedUrl(url, params.bucket!, params.key!, 'download');
  const row = await findObject(deps.db, req, null, params.bucket!, params.key!, '');
  const transformations = typeof claims.transformations === 'string' ? claims.transformations : '';
  return renderImage(args, row, transformations, new Date((claims.exp ?? 0) * 1000).toUTCString());
};

/** Upstream testPermission: run the write as the caller, then roll it back. */
async function canUpload(scope: Scope, args: Parameters<RouteHandler>[0], upsert: boolean) {
  const rollback = new Error('rollback');
  const { db } = args.deps;
  const sub = scope.caller.sub;
  try {
    await asCaller(db, scope, async (tx) => {
      await tx.query(SQL[upsert ? 'upsert-object' : 'insert-object'], [
        randomUUID(),
        args.params.bucket,
        args.params.key,
        ownerUuid(sub),
        sub ?? null,
        null,
        null,
        'permission-check',
      ]);
      throw rollback;
    });
  } catch (err) {
    if (err === rollback) return;
    if ((err as { code?: string }).code === '23505') throw ERRORS.keyAlreadyExists();
    throw err;
  }
}

/** POST `/object/upload/sign/{b}/{p}` (`x-upsert`) → `{url, token}`; checks the caller could upload. */
export const signUpload: RouteHandler = async (args) => {
  const { req, params, deps } = args;
  const caller = await callerOf(req);
  const key = params.key;
  mustBeValidKey(key);
  await findBucket(deps.db, params.bucket!);
  const upsert = req.headers.get('x-upsert') === 'true';
  await canUpload({ caller, req, operation: 'storage.object.sign_upload_url' }, args, upsert);
  const path = `${params.bucket}/${key}`;
  const token = await signToken(
    { owner: caller.sub, url: path, upsert, scope: 'upload' },
    UPLOAD_URL_EXPIRY,
  );
  return json({ url: `/object/upload/sign/${path}?token=${token}`, token });
};

/** PUT `/object/upload/sign/{b}/{p}?token=` — stored elevated with the signer as owner. */
export const uploadToSignedUrl: RouteHandler = async ({ req, url, params, deps }) => {
  const bucketId = params.bucket!;
  const key = params.key!;
  const claims = await verifySignedUrl(url, bucketId, key, 'upload');
  const bucket = await findBucket(deps.db, bucketId);
  const upload = await readUploadBody(req, uploadLimit(bucket, key, deps.fileSizeLimit));
  const stored = await storeObject({
    db: deps.db,
    files: deps.files,
    scope: { caller: SERVICE, req, operation: 'storage.object.upload_signed' },
    bucket,
    key,
    upload,
    upsert: claims.upsert === true,
    globalLimit: deps.fileSizeLimit,
    owner: typeof claims.owner === 'string' ? claims.owner : undefined,
  });
  return json({ Id: stored.id, Key: stored.key });
};
