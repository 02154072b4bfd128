// The verify_jwt gate in front of a function: which requests pass, and the 401 reason for those that don't.
import { decodeProtectedHeader } from 'jose';
import { verifyJwt } from '../keys.js';

export type AuthDecision = { ok: true } | { ok: false; errorCode: string; message: string };

const PASS: AuthDecision = { ok: true };

function deny(errorCode: string, message: string): AuthDecision {
  return { ok: false, errorCode, message };
}

/**
 * Decides whether a request may reach a function. OPTIONS always passes so the function can answer
 * its own preflight (contract §5.4). Otherwise, with verify_jwt on, the Authorization header must be
 * `Bearer <JWT>` that verifies. Reasons follow the hosted `sb-error-code` values (docs:
 * functions/error-codes); the header split mirrors the CLI relay's `getAuthToken` (one space, a
 * case-sensitive `Bearer`).
 */
export async function checkFunctionAuthorization(
  method: string,
  authorization: string | null,
  verifyJwtEnabled: boolean,
): Promise<AuthDecision> {
  if (!verifyJwtEnabled || method === 'OPTIONS') return PASS;
  if (!authorization) return deny('UNAUTHORIZED_NO_AUTH_HEADER', 'Missing authorization header');
  const [scheme, token] = authorization.split(' ');
  if (scheme !== 'Bearer' || !token) {
    return deny('UNAUTHORIZED_INVALID_JWT_FORMAT', "Auth header is not 'Bearer {token}'");
  }
  let alg: string | undefined;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch {
    // Not a JWT at all, e.g. `Bearer sb_publishable_...`.
    return deny('UNAUTHORIZED_INVALID_JWT_FORMAT', 'Invalid JWT');
  }
  if (alg === 'HS256') {
    const result = await verifyJwt(token);
    return result.ok ? PASS : deny('UNAUTHORIZED_LEGACY_JWT', 'Invalid JWT');
  }
  if (alg === 'ES256' || alg === 'RS256') {
    // Checked against `[auth] signing_keys_path`'s keys (none configured: never verifies).
    const result = await verifyJwt(token);
    return result.ok ? PASS : deny('UNAUTHORIZED_ASYMMETRIC_JWT', 'Invalid JWT');
  }
  return deny('UNAUTHORIZED_UNSUPPORTED_TOKEN_ALGORITHM', `Unsupported JWT algorithm ${alg}`);
}
