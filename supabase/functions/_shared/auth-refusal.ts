// Tells a refused login from an Auth outage (SPEC §8): only Auth saying no to the token is
// `unauthenticated`; a network error, a timeout or a 5xx is `internal`, so an outage never asks
// signed-in members to sign in again. Pure, so vitest tests it too.

/** What supabase-js hands back as `error` from `auth.getUser(jwt)` (AuthError and its kinds). */
export interface AuthLookupError {
  name?: string;
  status?: number;
  code?: string;
}

/** GoTrue's error codes for a token it will not accept (bad, expired, revoked, user gone). */
const REFUSAL_CODES = new Set([
  'bad_jwt',
  'no_authorization',
  'session_not_found',
  'session_expired',
  'user_not_found',
]);

/**
 * True when Auth looked at the token and refused it: 401 or 403 (GoTrue answers a bad, expired
 * or revoked JWT so), 404 for a user that no longer exists, or one of the refusal codes. A
 * fetch that never got an answer (supabase-js' AuthRetryableFetchError, status 0), a 5xx, a 429
 * or an answer supabase-js could not read (AuthUnknownError) is not a refusal.
 */
export function isRefusedToken(error: AuthLookupError): boolean {
  if (error.name === 'AuthRetryableFetchError' || error.name === 'AuthUnknownError') return false;
  if (error.code && REFUSAL_CODES.has(error.code)) return true;
  return error.status === 401 || error.status === 403 || error.status === 404;
}
