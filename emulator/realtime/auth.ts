// Who is on the socket and on each channel: the apikey query parameter and per-channel access tokens (contract §4.6, §7.3).
import { resolveAuthorization, bearerToken } from '../gateway/credentials.js';
import { decodeJwt } from 'jose';
import { verifyJwt, type EmulatorKeys, type JwtClaims } from '../keys.js';

export interface Identity {
  /** The JWT the claims came from (the key-derived JWT for sb_ keys). */
  token: string;
  claims: JwtClaims;
  /** Postgres role to evaluate policies as. */
  role: string;
}

export type AuthResult = { ok: true; identity: Identity } | { ok: false; message: string };

/** Verifies a JWT and insists on the `role` and `exp` claims realtime needs (contract §7.3). */
export async function identify(token: string): Promise<AuthResult> {
  const verified = await verifyJwt(token);
  if (!verified.ok) {
    if (verified.reason === 'expired') {
      // Upstream words it "Token has expired N seconds ago" (realtime ChannelsAuthorization).
      const exp = Number(decodeJwt(token).exp);
      const ago = Math.max(0, Math.floor(Date.now() / 1000) - exp);
      return { ok: false, message: `Token has expired ${ago} seconds ago` };
    }
    return { ok: false, message: `Invalid token: ${verified.message}` };
  }
  const { claims } = verified;
  if (typeof claims.role !== 'string' || !claims.role) {
    return { ok: false, message: 'Fields `role` and `exp` are required in JWT' };
  }
  if (typeof claims.exp !== 'number') {
    return { ok: false, message: 'Fields `role` and `exp` are required in JWT' };
  }
  return { ok: true, identity: { token, claims, role: claims.role } };
}

/**
 * The socket's `apikey` parameter, mapped as the CLI gateway maps the apikey header (§0.3):
 * sb_secret → service_role JWT, sb_publishable → anon JWT, anything else must be a JWT itself.
 */
export async function identifyApikey(
  apikey: string | null,
  keys: EmulatorKeys,
): Promise<AuthResult> {
  if (!apikey) return { ok: false, message: 'API key is required' };
  const token = bearerToken(resolveAuthorization(null, apikey, keys));
  if (!token || token.startsWith('sb_')) return { ok: false, message: 'Invalid API key' };
  return identify(token);
}

/**
 * The identity a channel runs as. realtime-js may join before it has a token, and sends the
 * publishable key itself as `access_token` when there is no session: both mean "the apikey".
 */
export async function identifyChannel(
  accessToken: unknown,
  socketIdentity: Identity,
): Promise<AuthResult> {
  if (typeof accessToken !== 'string' || !accessToken || accessToken.startsWith('sb_')) {
    return { ok: true, identity: socketIdentity };
  }
  return identify(accessToken);
}
