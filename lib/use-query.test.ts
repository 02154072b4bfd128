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

  it('throws a QueryError carrying the PostgREST code and message', () => {
    const error = { message: 'permission denied for table lists', code: '42501', details: null };
    let thrown: unknown;
    try {
      unwrap({ data: null, error });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(QueryError);
    expect(thrown).toMatchObject({
      message: 'permission denied for table lists',
      code: '42501',
      details: error,
    });
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

  it('gives a generic message to errors without one', () => {
    expect(toQueryError('boom').message).toBe('Something went wrong.');
    expect(toQueryError({ message: '' }).message).toBe('Something went wrong.');
  });

  it('returns an existing QueryError as is', () => {
    const err = new QueryError('x', { code: 'y' });
    expect(toQueryError(err)).toBe(err);
  });
});
