// Unit tests for the pure parts of the SWR wrapper: keys and error unwrapping.
import { describe, expect, it } from 'vitest';
import { QueryError, queryKey, toQueryError, unwrap } from './use-query';

describe('queryKey', () => {
  it('is the resource alone without parameters', () => {
    expect(queryKey('lists')).toBe('lists');
    expect(queryKey('admin/subscribers', {})).toBe('admin/subscribers');
  });

  it('sorts parameters, drops undefined ones and keeps null distinct', () => {
    expect(queryKey('subscribers', { status: 'enabled', after: undefined, list: 'news' })).toBe(
      'subscribers?list=news&status=enabled',
    );
    expect(queryKey('subscribers', { list: 'news', status: 'enabled' })).toBe(
      queryKey('subscribers', { status: 'enabled', list: 'news' }),
    );
    expect(queryKey('campaigns', { slug: null, page: 2, archive: true })).toBe(
      'campaigns?archive=true&page=2&slug=null',
    );
  });

  it('encodes values so a key cannot be forged by a parameter', () => {
    expect(queryKey('subscribers', { q: 'a&b=c ä' })).toBe('subscribers?q=a%26b%3Dc+%C3%A4');
  });

  it('rejects resources that are not kebab-case', () => {
    for (const bad of ['', 'Lists', 'lists?x=1', 'lists/', 'list_items', '/lists']) {
      expect(() => queryKey(bad)).toThrow(/kebab-case/);
    }
  });
});

describe('unwrap', () => {
  it('returns data, including null data without an error', () => {
    expect(unwrap({ data: [{ id: 1 }], error: null })).toEqual([{ id: 1 }]);
    expect(unwrap({ data: null, error: null })).toBeNull();
  });

  it('throws a QueryError carrying the PostgREST code, and the catalogue message of a denial', () => {
    const error = { message: 'permission denied for table lists', code: '42501', details: null };
    let thrown: unknown;
    try {
      unwrap({ data: null, error });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(QueryError);
    expect(thrown).toMatchObject({
      message: 'You do not have permission to do that.',
      code: '42501',
      details: error,
    });
  });

  it("uses the result's status for errors that carry none (PostgREST)", () => {
    const error = { message: 'canceling statement due to statement timeout', code: '57014' };
    expect(() => unwrap({ data: null, error, status: 500 })).toThrow(
      'Something went wrong. Nothing was changed.',
    );
    const html = { message: '<html><body><h1>502 Bad Gateway</h1></body></html>' };
    expect(() => unwrap({ data: null, error: html, status: 502 })).toThrow(
      'Something went wrong. Nothing was changed.',
    );
    const offline = { message: 'TypeError: Failed to fetch', code: '', details: 'stack' };
    expect(() => unwrap({ data: null, error: offline, status: 0 })).toThrow(
      'We could not reach the server. Check your connection and try again.',
    );
  });
});

describe('toQueryError', () => {
  it('keeps a numeric status (storage and auth errors carry one)', () => {
    expect(toQueryError({ message: 'Object not found', status: 404 })).toMatchObject({
      message: 'Object not found',
      status: 404,
      code: undefined,
    });
  });

  it("gives the catalogue's internal message to errors without one", () => {
    expect(toQueryError('boom').message).toBe('Something went wrong. Nothing was changed.');
    expect(toQueryError({ message: '' }).message).toBe(
      'Something went wrong. Nothing was changed.',
    );
  });

  it('never shows raw upstream text: network failures and server errors get catalogue messages', () => {
    const unreachable = 'We could not reach the server. Check your connection and try again.';
    const internal = 'Something went wrong. Nothing was changed.';
    // PostgREST without an answer, storage-js without an answer, and the bare browser texts.
    expect(toQueryError({ message: 'TypeError: Failed to fetch', code: '' }).message).toBe(
      unreachable,
    );
    expect(toQueryError({ name: 'StorageUnknownError', message: 'Failed to fetch' }).message).toBe(
      unreachable,
    );
    for (const text of [
      'Failed to fetch',
      'NetworkError when attempting to fetch resource.',
      'Load failed',
    ]) {
      expect(toQueryError({ message: text }).message).toBe(unreachable);
    }
    // A storage 500 (its statusText), an HTML error page, a database error behind a 5xx.
    expect(toQueryError({ message: 'Internal Server Error', status: 500 })).toMatchObject({
      message: internal,
      status: 500,
    });
    expect(
      toQueryError({ message: '<html><body><h1>502 Bad Gateway</h1></body></html>' }).message,
    ).toBe(internal);
    expect(
      toQueryError({ message: 'canceling statement due to statement timeout', code: 'XX000' }, 500),
    ).toMatchObject({ message: internal, code: 'XX000', status: 500 });
  });

  it('treats server-side SQLSTATEs as internal even without a status', () => {
    for (const code of ['XX000', '57014', '53300', '08006']) {
      expect(
        toQueryError({ message: 'canceling statement due to statement timeout', code }).message,
      ).toBe('Something went wrong. Nothing was changed.');
    }
    expect(toQueryError({ message: 'duplicate key value', code: '23505' }).message).toBe(
      'duplicate key value',
    );
  });

  it('keeps the raw answer in details only', () => {
    const raw = { message: '<html>502</html>' };
    const err = toQueryError(raw, 502);
    expect(err.details).toBe(raw);
    expect(err.message).not.toContain('html');
  });

  it('maps refused tokens and RLS denials to their catalogue messages, keeps other 4xx', () => {
    expect(toQueryError({ message: 'JWT expired', code: 'PGRST303' }, 401).message).toBe(
      'Sign in to continue.',
    );
    expect(
      toQueryError({ message: 'new row violates row-level security policy', code: '42501' }, 403)
        .message,
    ).toBe('You do not have permission to do that.');
    expect(toQueryError({ message: 'Object not found', status: 404 }).message).toBe(
      'Object not found',
    );
  });

  it('returns an existing QueryError as is', () => {
    const err = new QueryError('x', { code: 'y' });
    expect(toQueryError(err)).toBe(err);
  });
});
