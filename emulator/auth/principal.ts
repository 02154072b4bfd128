// Who is calling: the bearer JWT checked the way GoTrue's auth middleware checks it (contract §7.3).
import type { Queryable } from '../db/types.js';
import { verifyJwt, type JwtClaims } from '../keys.js';
import { AuthError, errors } from './errors.js';
import { SQL } from './queries.js';
import { findUserById, isBanned, type UserRow } from './users.js';

export function bearerToken(req: Request): string | null {
  const header = req.headers.get('authorization');
  const m = header ? /^bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m ? m[1]! : null;
}

/** Any valid JWT (anon, service_role or a user's). */
export async function requireClaims(req: Request): Promise<JwtClaims> {
  const token = bearerToken(req);
  if (!token) throw errors.noAuthorization();
  const result = await verifyJwt(token);
  if (!result.ok) {
    throw errors.badJwt(
      result.reason === 'expired'
        ? 'token has invalid claims: token is expired'
        : 'unable to parse or verify signature, ' + result.message,
    );
  }
  return result.claims;
}

/** Admin endpoints: a JWT whose role is service_role (secret key or legacy service key). */
export async function requireAdmin(req: Request): Promise<JwtClaims> {
  const claims = await requireClaims(req);
  if (claims.role !== 'service_role' && claims.role !== 'supabase_admin') throw errors.notAdmin();
  return claims;
}

export interface UserPrincipal {
  claims: JwtClaims;
  user: UserRow;
  sessionId: string | null;
}

/** Endpoints acting on "the user": the token's user and session must still exist. */
export async function requireUser(req: Request, q: Queryable): Promise<UserPrincipal> {
  const claims = await requireClaims(req);
  const sub = typeof claims.sub === 'string' ? claims.sub : '';
  if (!sub) throw errors.badJwt('invalid claim: missing sub claim');
  if (!/^[0-9a-f-]{36}$/i.test(sub)) {
    throw new AuthError(400, 'bad_jwt', 'invalid claim: sub claim must be a UUID');
  }
  const user = await findUserById(q, sub);
  if (!user) {
    throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
  }
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : null;
  if (sessionId) {
    const ok = /^[0-9a-f-]{36}$/i.test(sessionId)
      ? (await q.query(SQL['session-by-id'], [sessionId])).rows.length > 0
      : false;
    if (!ok) {
      throw new AuthError(
        403,
        'session_not_found',
        'Session from session_id claim in JWT does not exist',
      );
    }
  }
  // Tokens issued before a ban stop working (upstream requireAuthentication).
  if (isBanned(user)) throw new AuthError(403, 'user_banned', 'User is banned');
  return { claims, user, sessionId };
}
