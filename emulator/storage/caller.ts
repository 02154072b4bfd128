// Who is calling (from the bearer JWT) and how their statements run: as their role, with their claims.
import type { Db, Queryable } from '../db/types.js';
import { bearerToken } from '../gateway/credentials.js';
import { verifyJwt, type JwtClaims } from '../keys.js';
import { ERRORS } from './errors.js';
import { SQL } from './sql.js';

export interface Caller {
  role: string;
  claims: JwtClaims;
  jwt: string;
  /** JWT `sub`: becomes owner/owner_id of what the caller creates. */
  sub: string | undefined;
}

const ANON: Caller = { role: 'anon', claims: { role: 'anon' }, jwt: '', sub: undefined };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** owner is a uuid column; a non-uuid sub only goes to owner_id (upstream isUuid check). */
export function ownerUuid(sub: string | undefined): string | null {
  return sub && UUID.test(sub) ? sub : null;
}

/** JWT verification messages as the contract quotes them (§3.6). */
export async function verifyToken(token: string): Promise<JwtClaims> {
  const result = await verifyJwt(token);
  if (result.ok) return result.claims;
  if (result.reason === 'expired') throw ERRORS.invalidJwt('jwt expired');
  if (result.reason === 'malformed') throw ERRORS.invalidJwt('jwt malformed');
  throw ERRORS.invalidJwt('invalid signature');
}

/**
 * The caller of an authenticated route. Upstream's jwt plugin answers a missing or bad token
 * with AccessDenied carrying the verifier's message (src/http/plugins/jwt.ts); routes that
 * allow anonymous access (public objects, signed URLs) pass `optional` and get `anon`.
 */
export async function callerOf(req: Request, optional = false): Promise<Caller> {
  const token = bearerToken(req.headers.get('authorization'));
  if (!token) {
    if (optional) return ANON;
    throw ERRORS.accessDenied('jwt malformed');
  }
  let claims: JwtClaims;
  try {
    claims = await verifyToken(token);
  } catch (err) {
    if (optional) return ANON;
    throw ERRORS.accessDenied((err as Error).message);
  }
  return {
    role: typeof claims.role === 'string' ? claims.role : 'anon',
    claims,
    jwt: token,
    sub: typeof claims.sub === 'string' ? claims.sub : undefined,
  };
}

export interface Scope {
  caller: Caller;
  req: Request;
  /** Upstream operation name (storage.operation GUC), e.g. `storage.object.upload`. */
  operation: string;
}

/**
 * Runs fn in one transaction as the caller: `role`, `request.jwt.claims` and friends set
 * locally, so the project's RLS policies on storage.objects/buckets decide (contract §3.3).
 */
export function asCaller<T>(db: Db, scope: Scope, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const url = new URL(scope.req.url);
    const headers: Record<string, string> = {};
    scope.req.headers.forEach((value, name) => {
      if (name !== 'authorization' && name !== 'apikey') headers[name] = value;
    });
    await tx.query(SQL['set-scope'], [
      scope.caller.role,
      scope.caller.jwt,
      scope.caller.sub ?? '',
      JSON.stringify(scope.caller.claims),
      JSON.stringify(headers),
      scope.req.method,
      url.pathname,
      scope.operation,
    ]);
    return fn(tx);
  });
}
