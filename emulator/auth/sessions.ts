// Sessions, rotating refresh tokens and the access-token JWT GoTrue issues (contract §2.1, §7.2).
import type { Queryable } from '../db/types.js';
import { signAccessToken } from '../keys.js';
import { AuthError } from './errors.js';
import { SQL } from './queries.js';
import { findUserById, loadUserJson, type UserJson, type UserRow } from './users.js';

export interface SessionSettings {
  /** `${url}/auth/v1`, the `iss` claim. */
  issuer: string;
  jwtExpiry: number;
  refreshTokenRotation: boolean;
  refreshTokenReuseInterval: number;
}

export interface SessionJson {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: UserJson;
}

interface RefreshTokenRow {
  id: string;
  token: string;
  user_id: string;
  revoked: boolean;
  parent: string | null;
  session_id: string | null;
  within_reuse_interval?: boolean;
}

// GoTrue's legacy refresh tokens: exactly 12 of [a-z0-9] (token_refresh.go validates that shape).
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A short opaque refresh token, never a JWT. */
export function newRefreshToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join('');
}

async function accessToken(
  q: Queryable,
  settings: SessionSettings,
  user: UserRow,
  sessionId: string,
): Promise<{ token: string; expiresAt: number }> {
  const amr = await q.query<{ authentication_method: string; ts: number }>(SQL['amr-by-session'], [
    sessionId,
  ]);
  const session = await q.query<{ aal: string | null }>(
    'select aal::text as aal from auth.sessions where id = $1',
    [sessionId],
  );
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + settings.jwtExpiry;
  // Claim order and values as GoTrue's AccessTokenClaims.
  const claims = {
    iss: settings.issuer,
    sub: user.id,
    aud: user.aud ?? 'authenticated',
    exp,
    iat,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role || 'authenticated',
    aal: session.rows[0]?.aal ?? 'aal1',
    amr: amr.rows.map((r) => ({ method: r.authentication_method, timestamp: r.ts })),
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  };
  return { token: await signAccessToken(claims), expiresAt: exp };
}

async function sessionJson(
  q: Queryable,
  settings: SessionSettings,
  userId: string,
  sessionId: string,
  refreshToken: string,
): Promise<SessionJson> {
  const user = await findUserById(q, userId);
  if (!user) throw new AuthError(403, 'user_not_found', 'User not found');
  const { token, expiresAt } = await accessToken(q, settings, user, sessionId);
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: settings.jwtExpiry,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: (await loadUserJson(q, userId))!,
  };
}

export interface ClientInfo {
  userAgent: string | null;
  ip: string | null;
}

/** Starts a session for a user who just authenticated with `method` (the `amr` entry). */
export async function issueSession(
  q: Queryable,
  settings: SessionSettings,
  userId: string,
  method: string,
  client: ClientInfo,
): Promise<SessionJson> {
  const sessionId = crypto.randomUUID();
  await q.query(SQL['insert-session'], [sessionId, userId, client.userAgent, client.ip || null]);
  await q.query(SQL['insert-amr'], [sessionId, method]);
  const refreshToken = newRefreshToken();
  await q.query(SQL['insert-refresh-token'], [refreshToken, userId, sessionId, null]);
  await q.query(SQL['set-last-sign-in'], [userId]);
  return sessionJson(q, settings, userId, sessionId, refreshToken);
}

/**
 * A verified second factor raises the session to aal2 (GoTrue's updateMFASessionAndClaims): the
 * `method` amr entry, the factor, and a new refresh token, the session's older ones revoked so
 * none of them refreshes into an aal2 token.
 */
export async function upgradeSession(
  q: Queryable,
  settings: SessionSettings,
  userId: string,
  sessionId: string,
  factorId: string,
  method: string,
): Promise<SessionJson> {
  await q.query(SQL['insert-amr'], [sessionId, method]);
  await q.query(
    `update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1`,
    [sessionId, factorId],
  );
  await q.query(SQL['revoke-session-tokens'], [sessionId]);
  const refreshToken = newRefreshToken();
  await q.query(SQL['insert-refresh-token'], [refreshToken, userId, sessionId, null]);
  return sessionJson(q, settings, userId, sessionId, refreshToken);
}

const notFound = () =>
  new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');

/**
 * grant_type=refresh_token, following GoTrue's refresh_token.go: a revoked token that is the parent
 * of the session's active token returns that active token (the client lost the last response); any
 * other revoked token is accepted only within the reuse interval; later the whole token family is
 * revoked and the call fails with refresh_token_already_used.
 * Returns the session, or an AuthError to raise after the caller commits (the revocation must stick).
 */
export async function refreshSession(
  q: Queryable,
  settings: SessionSettings,
  token: string,
): Promise<SessionJson | AuthError> {
  const found = await q.query<RefreshTokenRow>(SQL['refresh-token-by-token'], [
    token,
    settings.refreshTokenReuseInterval,
  ]);
  const row = found.rows[0];
  if (!row || !row.session_id) return notFound();
  const session = await q.query(SQL['session-by-id'], [row.session_id]);
  if (!session.rows[0]) return notFound();
  const user = await findUserById(q, row.user_id);
  if (!user) return notFound();

  if (row.revoked) {
    const active = (await q.query<RefreshTokenRow>(SQL['active-refresh-token'], [row.session_id]))
      .rows[0];
    if (active && active.parent === row.token) {
      await q.query(SQL['touch-session'], [row.session_id]);
      return sessionJson(q, settings, row.user_id, row.session_id, active.token);
    }
    if (!row.within_reuse_interval) {
      // Reuse outside the interval looks like a stolen token: upstream revokes the token family;
      // the contract (§2.2) revokes the session, so its access tokens stop working too.
      if (settings.refreshTokenRotation) {
        await q.query(SQL['revoke-session-tokens'], [row.session_id]);
        await q.query(SQL['delete-session'], [row.session_id]);
      }
      return new AuthError(
        400,
        'refresh_token_already_used',
        'Invalid Refresh Token: Already Used',
      );
    }
  }

  let next = row.token;
  if (settings.refreshTokenRotation) {
    next = newRefreshToken();
    if (!row.revoked) await q.query(SQL['revoke-refresh-token'], [row.id]);
    await q.query(SQL['insert-refresh-token'], [next, row.user_id, row.session_id, row.token]);
  }
  await q.query(SQL['touch-session'], [row.session_id]);
  return sessionJson(q, settings, row.user_id, row.session_id, next);
}
