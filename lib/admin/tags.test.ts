// Unit tests for the tag name rules, the tags screen's search and sort, and where a refused name goes.
import { describe, expect, it } from 'vitest';
import { splitTags, tagNameProblem, tagWriteError, visibleTags, type TagSummary } from './tags';

describe('tagNameProblem', () => {
  it('accepts a trimmed name of 1 to 64 characters without separators or control characters', () => {
    expect(tagNameProblem('  VIP  ')).toBeNull();
    expect(tagNameProblem('x'.repeat(64))).toBeNull();
    expect(tagNameProblem('   ')).toBe('Enter a tag.');
    expect(tagNameProblem('x'.repeat(65))).toBe('A tag has at most 64 characters.');
    expect(tagNameProblem('a,b')).toBe('A tag cannot contain a comma or a semicolon.');
    expect(tagNameProblem('a\tb')).toBe('A tag cannot contain control characters.');
  });

  it('splits a typed list, dropping blanks and case duplicates', () => {
    expect(splitTags('vip; Early, ,VIP;beta')).toEqual(['vip', 'Early', 'beta']);
  });
});

describe('visibleTags', () => {
  const tags: TagSummary[] = [
    { id: '1', name: 'beta', subscribers: 5, created_at: '2026-11-02T00:00:00Z' },
    { id: '2', name: 'VIP', subscribers: 40, created_at: '2026-11-01T00:00:00Z' },
    { id: '3', name: 'alpha', subscribers: 5, created_at: '2026-11-03T00:00:00Z' },
  ];
  const names = (list: TagSummary[]) => list.map((t) => t.name);

  it('sorts by name ignoring case, by most subscribers (then name) or newest first', () => {
    expect(names(visibleTags(tags, '', 'name'))).toEqual(['alpha', 'beta', 'VIP']);
    expect(names(visibleTags(tags, '', 'subscribers'))).toEqual(['VIP', 'alpha', 'beta']);
    expect(names(visibleTags(tags, '', 'newest'))).toEqual(['alpha', 'beta', 'VIP']);
  });

  it('finds by part of the name ignoring case, and leaves the input alone', () => {
    expect(names(visibleTags(tags, ' A ', 'name'))).toEqual(['alpha', 'beta']);
    expect(visibleTags(tags, 'zzz', 'name')).toEqual([]);
    expect(names(tags)).toEqual(['beta', 'VIP', 'alpha']);
  });
});

describe('tagWriteError', () => {
  it('puts a taken or refused name at the field, in a sentence', () => {
    expect(
      tagWriteError({
        status: 409,
        message: 'postbox:conflict: Another tag already has that name.',
      }),
    ).toEqual({ field: 'Another tag already has that name.', form: null });
    expect(
      tagWriteError({
        status: 422,
        message:
          'postbox:invalid_input: name: a tag has 1 to 64 characters and no comma or semicolon',
      }),
    ).toEqual({
      field: 'A tag has 1 to 64 characters and no comma or semicolon',
      form: null,
    });
  });

  it('puts anything else under the form', () => {
    expect(
      tagWriteError({ status: 403, message: 'You do not have permission to do that.' }),
    ).toEqual({ field: null, form: 'You do not have permission to do that.' });
  });
});
