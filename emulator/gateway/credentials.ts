// Key → role mapping as the Supabase CLI's Kong does it (contract §0.3).
import type { EmulatorKeys } from '../keys.js';

/**
 * Returns the Authorization header a service should see.
 * 1. A present Authorization that is not `Bearer sb_…` passes through (user or legacy JWT).
 * 2. Else the secret key becomes the service_role JWT and the publishable key the anon JWT.
 * 3. Else the apikey itself is used as the bearer token (a legacy JWT key).
 */
export function resolveAuthorization(
  authorization: string | null,
  apikey: string | null,
  keys: EmulatorKeys,
): string | null {
  if (authorization && !/^bearer sb_/i.test(authorization)) return authorization;
  if (apikey === keys.secret) return `Bearer ${keys.serviceRole}`;
  if (apikey === keys.publishable) return `Bearer ${keys.anon}`;
  if (apikey) return `Bearer ${apikey}`;
  // `Bearer sb_…` with no usable apikey: hand the opaque key on; the service rejects it as a bad JWT.
  return authorization;
}

/** The bearer token of an Authorization header, or null. */
export function bearerToken(authorization: string | null): string | null {
  const match = authorization?.match(/^bearer\s+(.+)$/i);
  return match?.[1]?.trim() ?? null;
}
