// Unit tests of the TOTP helpers against RFC 6238's SHA-1 vectors and the otpauth library.
import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, newTotpSecret, totpUri, totpValid } from './totp.js';

// RFC 6238 appendix B: the ASCII secret "12345678901234567890", 8-digit codes; we keep the last 6.
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890'));

describe('totp', () => {
  it('round-trips base32 and makes 32-character secrets', () => {
    expect(base32Decode(RFC_SECRET).toString()).toBe('12345678901234567890');
    expect(newTotpSecret()).toMatch(/^[A-Z2-7]{32}$/);
  });

  it('matches RFC 6238 (SHA-1) vectors', () => {
    expect(hotp(RFC_SECRET, Math.floor(59 / 30))).toBe('287082');
    expect(hotp(RFC_SECRET, Math.floor(1111111109 / 30))).toBe('081804');
    expect(hotp(RFC_SECRET, Math.floor(2000000000 / 30))).toBe('279037');
  });

  it('accepts the code of otpauth for now and one step either side, nothing further', () => {
    const secret = newTotpSecret();
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
    const now = Date.now();
    expect(totpValid(secret, totp.generate({ timestamp: now }), now)).toBe(true);
    expect(totpValid(secret, totp.generate({ timestamp: now - 30_000 }), now)).toBe(true);
    expect(totpValid(secret, totp.generate({ timestamp: now + 90_000 }), now)).toBe(false);
    expect(totpValid(secret, 'abcdef', now)).toBe(false);
  });

  it('writes the URI as pquerna/otp does', () => {
    expect(totpUri('127.0.0.1:3000', 'a b@example.com', 'ABC')).toBe(
      'otpauth://totp/127.0.0.1:3000:a%20b@example.com?algorithm=SHA1&digits=6&issuer=127.0.0.1%3A3000&period=30&secret=ABC',
    );
  });
});
