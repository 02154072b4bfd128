// isRefusedToken (supabase/functions/_shared/auth-refusal.ts): which of Auth's failures mean
// "sign in again" (401) and which are an outage (500).
import { describe, expect, it } from 'vitest';

const { isRefusedToken } = (await import(
  /* @vite-ignore */ new URL('../../supabase/functions/_shared/auth-refusal.ts', import.meta.url)
    .href
)) as { isRefusedToken: (e: { name?: string; status?: number; code?: string }) => boolean };

describe('isRefusedToken', () => {
  it('is true when Auth refused the token', () => {
    expect(isRefusedToken({ name: 'AuthApiError', status: 401, code: 'no_authorization' })).toBe(
      true,
    );
    expect(isRefusedToken({ name: 'AuthApiError', status: 403, code: 'bad_jwt' })).toBe(true);
    expect(isRefusedToken({ name: 'AuthApiError', status: 403 })).toBe(true);
    expect(isRefusedToken({ name: 'AuthApiError', status: 404, code: 'user_not_found' })).toBe(
      true,
    );
    expect(isRefusedToken({ name: 'AuthApiError', status: 400, code: 'session_not_found' })).toBe(
      true,
    );
  });

  it('is false for a network error, a timeout, a 5xx, a 429 or an unreadable answer', () => {
    expect(isRefusedToken({ name: 'AuthRetryableFetchError', status: 0 })).toBe(false);
    expect(isRefusedToken({ name: 'AuthRetryableFetchError', status: 503 })).toBe(false);
    expect(isRefusedToken({ name: 'AuthApiError', status: 500, code: 'unexpected_failure' })).toBe(
      false,
    );
    expect(
      isRefusedToken({ name: 'AuthApiError', status: 429, code: 'over_request_rate_limit' }),
    ).toBe(false);
    expect(isRefusedToken({ name: 'AuthUnknownError', status: 403 })).toBe(false);
    expect(isRefusedToken({ name: 'AuthApiError', status: 400, code: 'validation_failed' })).toBe(
      false,
    );
  });
});
