// Unit tests for GoTrue's two error shapes and the headers that go with them.
import { describe, expect, it } from 'vitest';
import { AuthError, errorResponse, wantsApiVersion2024 } from './errors.js';

const req = (headers: Record<string, string> = {}) =>
  new Request('http://x/auth/v1/token', { headers });

describe('errorResponse', () => {
  it('2024-01-01 shape with both headers', async () => {
    const res = errorResponse(
      req({ 'X-Supabase-Api-Version': '2024-01-01' }),
      new AuthError(400, 'invalid_credentials', 'Invalid login credentials'),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(res.headers.get('x-sb-error-code')).toBe('invalid_credentials');
    expect(await res.json()).toEqual({
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    });
  });

  it('legacy shape without the header', async () => {
    const res = errorResponse(req(), new AuthError(403, 'not_admin', 'User not allowed'));
    expect(res.headers.get('x-supabase-api-version')).toBeNull();
    expect(await res.json()).toEqual({
      code: 403,
      error_code: 'not_admin',
      msg: 'User not allowed',
    });
  });

  it('keeps extra fields such as weak_password', async () => {
    const res = errorResponse(
      req({ 'X-Supabase-Api-Version': '2024-01-01' }),
      new AuthError(422, 'weak_password', 'weak', { weak_password: { reasons: ['length'] } }),
    );
    expect(await res.json()).toEqual({
      code: 'weak_password',
      message: 'weak',
      weak_password: { reasons: ['length'] },
    });
  });
});

describe('wantsApiVersion2024', () => {
  it('accepts that date or later, rejects older and garbage', () => {
    expect(wantsApiVersion2024(req({ 'X-Supabase-Api-Version': '2025-06-01' }))).toBe(true);
    expect(wantsApiVersion2024(req({ 'X-Supabase-Api-Version': '2023-12-31' }))).toBe(false);
    expect(wantsApiVersion2024(req({ 'X-Supabase-Api-Version': 'latest' }))).toBe(false);
  });
});
