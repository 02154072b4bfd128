// Storage errors with the upstream wire shape, and the one mapping from thrown errors to responses.

/**
 * A known storage error. `status` is the real status that goes into the body as a string;
 * the HTTP status is 400 for everything but 500 (supabase/storage src/http/error-handler.ts,
 * StorageBackendError.userStatusCode) unless `httpStatus` overrides it, as a few upstream
 * errors do (the 416 of an invalid Range, the 404 route fallback).
 */
export class StorageError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The legacy `error` field; upstream falls back to the code when a route sets none. */
    readonly error: string = code,
    readonly httpStatus: number = status === 500 ? 500 : 400,
  ) {
    super(message);
  }

  body(): Record<string, string> {
    return {
      statusCode: String(this.status),
      code: this.code,
      error: this.error,
      message: this.message,
    };
  }
}

// The subset of supabase/storage src/internal/errors/codes.ts ERRORS the emulator raises.
export const ERRORS = {
  noSuchBucket: () => new StorageError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new StorageError(404, 'NoSuchKey', 'Object not found', 'not_found'),
  accessDenied: (message = 'Access denied') =>
    new StorageError(403, 'AccessDenied', message, 'Unauthorized'),
  resourceAlreadyExists: () =>
    new StorageError(409, 'ResourceAlreadyExists', 'The resource already exists', 'Duplicate'),
  keyAlreadyExists: () =>
    new StorageError(409, 'KeyAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketAlreadyExists: () =>
    new StorageError(409, 'BucketAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketNotEmpty: () =>
    new StorageError(409, 'ResourceNotEmpty', 'The bucket you tried to delete is not empty'),
  invalidJwt: (message = 'Invalid JWT') => new StorageError(400, 'InvalidJWT', message),
  invalidSignature: (message = 'Invalid signature') =>
    new StorageError(400, 'InvalidSignature', message),
  expiredSignature: () => new StorageError(400, 'ExpiredToken', 'The provided token has expired.'),
  entityTooLarge: (entity = 'object') =>
    new StorageError(
      413,
      'EntityTooLarge',
      `The ${entity} exceeded the maximum allowed size`,
      'Payload too large',
    ),
  invalidMimeType: (mimeType: string) =>
    new StorageError(
      415,
      'InvalidMimeType',
      `mime type ${mimeType} is not supported`,
      'invalid_mime_type',
    ),
  invalidKey: (key: string) => new StorageError(400, 'InvalidKey', `Invalid key: ${key}`),
  invalidBucketName: () =>
    new StorageError(400, 'InvalidBucketName', 'Bucket name invalid', 'Invalid Input'),
  invalidFileSizeLimit: () =>
    new StorageError(
      400,
      'InvalidRequest',
      'Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B',
    ),
  invalidRequest: (message: string) => new StorageError(400, 'InvalidRequest', message),
  missingParameter: (name: string) =>
    new StorageError(400, 'MissingParameter', `Missing Required Parameter ${name}`),
  noContentProvided: () => new StorageError(400, 'InvalidRequest', 'No content provided'),
  invalidRange: () =>
    new StorageError(416, 'InvalidRange', 'invalid range provided', 'invalid_range', 416),
  imageProcessing: (status: number, message: string) =>
    new StorageError(status, status > 499 ? 'InternalError' : 'InvalidRequest', message),
  internal: () => new StorageError(500, 'InternalError', 'Internal server error', 'Internal'),
  /** supabase/storage src/http/not-found-handler.ts: a real 404 with code InvalidRequest. */
  routeNotFound: (method: string, url: string) =>
    new StorageError(404, 'InvalidRequest', `Route ${method}:${url} not found`, 'Not Found', 404),
  notImplemented: (feature: string) =>
    new StorageError(
      501,
      'NotSupported',
      `The emulator does not implement ${feature} (see emulator/README.md)`,
      'not_implemented',
      501,
    ),
};

interface PgLikeError {
  code?: string;
  message?: string;
}

/** Maps a Postgres error as supabase/storage src/storage/database/errors.ts DBError.fromDBError does. */
export function fromDbError(err: unknown): StorageError | null {
  const pg = err as PgLikeError;
  if (!pg || typeof pg.code !== 'string' || !/^[0-9A-Z]{5}$/.test(pg.code)) return null;
  switch (pg.code) {
    case '42501':
      return ERRORS.accessDenied(
        pg.message?.includes('row-level security')
          ? 'new row violates row-level security policy'
          : (pg.message ?? 'Access denied'),
      );
    case '23505':
      return ERRORS.resourceAlreadyExists();
    case '23503':
      return new StorageError(404, 'InvalidRequest', 'The related resource does not exist');
    case '22P02':
      return new StorageError(400, 'InvalidParameter', pg.message ?? 'Invalid Parameter value');
    default:
      return null;
  }
}

export function errorResponse(err: StorageError, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(err.body()), {
    status: err.httpStatus,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}
