// The Supabase CLI's well-known local keys, and HS256 JWT signing/verification shared by every service.
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

/** Local JWT secret, identical to the Supabase CLI default so other tools work unchanged. */
export const JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

/** Legacy anon JWT: {iss:"supabase-demo", role:"anon", exp:1983812996}, signed with JWT_SECRET. */
export const ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';
/** Legacy service_role JWT, same issuer and expiry. */
export const SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU';
export const PUBLISHABLE_KEY = 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH';
export const SECRET_KEY = 'sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz';

export interface EmulatorKeys {
  anon: string;
  serviceRole: string;
  publishable: string;
  secret: string;
  jwtSecret: string;
}

export const KEYS: EmulatorKeys = {
  anon: ANON_KEY,
  serviceRole: SERVICE_ROLE_KEY,
  publishable: PUBLISHABLE_KEY,
  secret: SECRET_KEY,
  jwtSecret: JWT_SECRET,
};

const secretBytes = new TextEncoder().encode(JWT_SECRET);

export type JwtClaims = Record<string, unknown> & {
  role?: string;
  sub?: string;
  exp?: number;
  iat?: number;
};

/** Signs claims as an HS256 JWT with the local secret. `exp`/`iat` are taken as given. */
export async function signJwt(claims: JwtClaims): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secretBytes);
}

export type JwtVerifyResult =
  | { ok: true; claims: JwtClaims }
  | { ok: false; reason: 'expired' | 'invalid' | 'malformed'; message: string };

/**
 * Verifies an HS256 JWT; distinguishes expiry (PGRST303 "JWT expired") from bad tokens (PGRST301).
 * `clockToleranceSeconds` lets `exp` and `nbf` be that far off, as PostgREST's 30 s skew does.
 */
export async function verifyJwt(
  token: string,
  { clockToleranceSeconds = 0 }: { clockToleranceSeconds?: number } = {},
): Promise<JwtVerifyResult> {
  if (token.split('.').length !== 3) {
    return {
      ok: false,
      reason: 'malformed',
      message: 'Expected 3 parts in JWT; got ' + token.split('.').length,
    };
  }
  try {
    const { payload } = await jwtVerify(token, secretBytes, {
      algorithms: ['HS256'],
      clockTolerance: clockToleranceSeconds,
    });
    return { ok: true, claims: payload as JwtClaims };
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired)
      return { ok: false, reason: 'expired', message: 'JWT expired' };
    if (err instanceof joseErrors.JWSSignatureVerificationFailed) {
      return { ok: false, reason: 'invalid', message: 'JWSError JWSInvalidSignature' };
    }
    return {
      ok: false,
      reason: 'invalid',
      message: err instanceof Error ? err.message : 'invalid JWT',
    };
  }
}
