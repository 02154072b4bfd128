// The Supabase CLI's well-known local keys, and the JWT signing/verification every service shares.
import {
  SignJWT,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  errors as joseErrors,
  type JWK,
} from 'jose';
import { signingKeyFor, type SigningKeys } from './signing-keys.js';

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

/**
 * The project's asymmetric keys (`[auth] signing_keys_path`), or null for HS256 only. Set by
 * the auth service when it is created; one set per process (the emulator runs one project).
 */
let signingKeysReady: Promise<SigningKeys | null> = Promise.resolve(null);

export function useSigningKeys(jwks: JWK[] | null): void {
  signingKeysReady = jwks && jwks.length ? signingKeyFor(jwks, importJWK) : Promise.resolve(null);
  // A key jose cannot import fails every signing and verification that needs it, not the process.
  signingKeysReady.catch(() => undefined);
}

/** The public halves of the signing keys, as GoTrue's `/.well-known/jwks.json` lists them. */
export async function publicJwks(): Promise<JWK[]> {
  return (await signingKeysReady)?.publicJwks ?? [];
}

/** An Auth access token: signed with the current (first) signing key and its `kid`, else HS256. */
export async function signAccessToken(claims: JwtClaims): Promise<string> {
  const keys = await signingKeysReady;
  if (!keys) return signJwt(claims);
  const { alg, kid, privateKey } = keys.current;
  return new SignJWT(claims).setProtectedHeader({ alg, kid, typ: 'JWT' }).sign(privateKey);
}

function isAsymmetric(token: string): boolean {
  try {
    const { alg } = decodeProtectedHeader(token);
    return alg === 'RS256' || alg === 'ES256';
  } catch {
    return false;
  }
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
    // Asymmetric tokens are checked against `[auth] signing_keys_path`'s keys, HS256 ones
    // against the secret, as the CLI configures every service with both.
    const keys = isAsymmetric(token) ? await signingKeysReady : null;
    const { payload } = keys
      ? await jwtVerify(token, keys.verifyKey, {
          algorithms: ['RS256', 'ES256'],
          clockTolerance: clockToleranceSeconds,
        })
      : await jwtVerify(token, secretBytes, {
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
