// Unit tests for the SQLSTATE → HTTP status table (contract §1.4).
import { describe, expect, it } from 'vitest';
import { fromPgError, statusForSqlState } from './errors.js';

describe('statusForSqlState', () => {
  it.each([
    ['23505', false, 409],
    ['23503', false, 409],
    ['42501', true, 401],
    ['42501', false, 403],
    ['42P01', false, 404],
    ['42883', false, 404],
    ['25006', false, 405],
    ['P0001', false, 400],
    ['P0002', false, 500],
    ['21000', false, 400],
    ['08006', false, 503],
    ['53300', false, 503],
    ['57P01', false, 503],
    ['57014', false, 500],
    ['40001', false, 500],
    ['XX000', false, 500],
    ['PT418', false, 418],
    ['22P02', false, 400],
    ['23502', false, 400],
    ['42703', false, 400],
  ])('%s (anon=%s) → %i', (code, anon, status) => {
    expect(statusForSqlState(code, anon)).toBe(status);
  });

  it('maps an unknown role to 401 and decodes raise sqlstate PGRST', () => {
    expect(fromPgError({ code: '22023', message: 'role "x" does not exist' }, false).status).toBe(
      401,
    );
    const custom = fromPgError(
      {
        code: 'PGRST',
        message: '{"code":"123","message":"custom","hint":"h"}',
        detail: '{"status":418,"headers":{"X-A":"b"}}',
      },
      false,
    );
    expect([custom.status, custom.code, custom.message, custom.hint, custom.headers]).toEqual([
      418,
      '123',
      'custom',
      'h',
      { 'X-A': 'b' },
    ]);
  });
});
