// Unit tests for the SQLSTATE → HTTP status table (contract §1.4).
import { describe, expect, it } from 'vitest';
import { fromPgError, statusForSqlState } from './errors.js';

describe('statusForSqlState', () => {
  // Every case of PostgREST's pgErrorStatus (Error.hs, v12.2 to v14), plus a neighbour of each.
  it.each([
    ['08006', false, '', 503],
    ['08P01', false, '', 503],
    ['09000', false, '', 500],
    ['0L000', false, '', 403],
    ['0LP01', false, '', 403],
    ['0P000', false, '', 403],
    ['23503', false, '', 409],
    ['23505', false, '', 409],
    ['23502', false, '', 400],
    ['25006', false, '', 405],
    ['25001', false, '', 500],
    ['21000', false, 'ON CONFLICT DO UPDATE command cannot affect row a second time', 500],
    ['21000', false, 'more than one row returned by a subquery used as an expression', 500],
    ['21000', false, 'UPDATE requires a WHERE clause', 400],
    ['22023', false, '', 400],
    ['28000', false, '', 403],
    ['28P01', false, '', 403],
    ['2D000', false, '', 500],
    ['38001', false, '', 500],
    ['39P01', false, '', 500],
    ['3B001', false, '', 500],
    ['40001', false, '', 500],
    ['40P01', false, '', 500],
    ['53400', false, '', 500],
    ['53300', false, '', 503],
    ['53100', false, '', 503],
    ['54001', false, '', 500],
    ['55P03', false, '', 500],
    ['57P01', false, '', 503],
    ['57014', false, '', 500],
    ['57P02', false, '', 500],
    ['58030', false, '', 500],
    ['F0000', false, '', 500],
    ['HV000', false, '', 500],
    ['P0001', false, '', 400],
    ['P0002', false, '', 500],
    ['XX000', false, '', 500],
    ['42883', false, 'function nope(integer) does not exist', 404],
    ['42883', false, 'function xmlagg(record) does not exist', 406],
    ['42P01', false, '', 404],
    ['42P17', false, '', 500],
    ['42501', true, '', 401],
    ['42501', false, '', 403],
    ['PT418', false, '', 418],
    ['PTABC', false, '', 500],
    ['22P02', false, '', 400],
    ['42703', false, '', 400],
    ['2BP01', false, '', 400],
  ])('%s (anon=%s, %j) → %i', (code, anon, message, status) => {
    expect(statusForSqlState(code, anon, message)).toBe(status);
  });

  it('answers 500 for 08P01, a statement the emulator built wrong, not a retryable 503', () => {
    const err = fromPgError(
      {
        code: '08P01',
        message: 'bind message supplies 1 parameters, but prepared statement "" requires 0',
      },
      true,
    );
    expect([err.status, err.code]).toEqual([500, '08P01']);
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
