// One-time passwords and the hashed tokens email links carry (GoTrue crypto.GenerateTokenHash).
import { createHash } from 'node:crypto';

/** A numeric OTP of `length` digits. */
export function generateOtp(length: number): string {
  const digits = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(digits, (d) => String(d % 10)).join('');
}

/** Upstream: hex(sha224(emailOrPhone + otp)). The link's `token=` is this hash, never the OTP. */
export function tokenHash(emailOrPhone: string, otp: string): string {
  return createHash('sha224')
    .update(emailOrPhone + otp)
    .digest('hex');
}

/** Tokens created for a PKCE flow are stored and sent with this prefix, as upstream. */
export const PKCE_PREFIX = 'pkce_';

export function stripPkce(token: string): string {
  return token.startsWith(PKCE_PREFIX) ? token.slice(PKCE_PREFIX.length) : token;
}
