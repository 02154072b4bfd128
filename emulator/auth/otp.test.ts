// Unit tests for OTP generation, GoTrue's token hash and the named-query loader.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateOtp, stripPkce, tokenHash } from './otp.js';
import { parseNamedQueries, SQL } from './queries.js';

describe('otp', () => {
  it('generates digits of the configured length', () => {
    expect(generateOtp(6)).toMatch(/^\d{6}$/);
    expect(generateOtp(8)).toMatch(/^\d{8}$/);
  });
  it('hashes email + otp with sha224 like crypto.GenerateTokenHash', () => {
    const expected = createHash('sha224').update('a@b.co123456').digest('hex');
    expect(tokenHash('a@b.co', '123456')).toBe(expected);
    expect(expected).toHaveLength(56);
  });
  it('strips the pkce_ prefix only', () => {
    expect(stripPkce('pkce_abc')).toBe('abc');
    expect(stripPkce('abc')).toBe('abc');
  });
});

describe('named queries', () => {
  it('splits sections and drops comments', () => {
    const q = parseNamedQueries(
      '-- header\n-- name: a\n-- $1 x\nselect 1;\n\n-- name: b\nselect 2;\n',
    );
    expect([...q.entries()]).toEqual([
      ['a', 'select 1;'],
      ['b', 'select 2;'],
    ]);
  });
  it('loads every statement the service uses', () => {
    expect(SQL['user-by-id']).toContain('from auth.users');
  });
});
