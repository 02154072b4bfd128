// Unit tests for the subscribers table's query rules: search patterns, keyset cursors and paging.
import { describe, expect, it } from 'vitest';
import {
  containsPattern,
  cursorAfter,
  cursorBefore,
  cursorFilter,
  isFiltered,
  NO_FILTERS,
  orderFor,
  quoteValue,
  searchFilter,
  toPage,
} from './subscriber-query';

const row = {
  id: '6f1c1a52-0000-4000-8000-000000000001',
  email: 'ada@example.com',
  created_at: '2026-11-22T10:00:00.123456+00:00',
};

describe('search', () => {
  it('escapes LIKE wildcards and the escape character so they match literally', () => {
    expect(containsPattern('50%_off\\')).toBe('*50\\%\\_off\\\\*');
  });

  it('turns a typed star into a one-character wildcard (PostgREST cannot escape *)', () => {
    expect(containsPattern('a*b')).toBe('*a_b*');
  });

  it('quotes values for logic trees, escaping quotes and backslashes', () => {
    expect(quoteValue('a,b.c:(d)')).toBe('"a,b.c:(d)"');
    expect(quoteValue('say "hi" \\o/')).toBe('"say \\"hi\\" \\\\o/"');
  });

  it('searches email or name, trimmed, and nothing for blank text', () => {
    expect(searchFilter('  Ada ')).toBe('email.ilike."*Ada*",name.ilike."*Ada*"');
    expect(searchFilter('1%')).toBe('email.ilike."*1\\\\%*",name.ilike."*1\\\\%*"');
    expect(searchFilter('   ')).toBeNull();
  });

  it('knows when the table is filtered', () => {
    expect(isFiltered(NO_FILTERS)).toBe(false);
    expect(isFiltered({ ...NO_FILTERS, sort: 'email-asc' })).toBe(false);
    expect(isFiltered({ ...NO_FILTERS, search: 'x' })).toBe(true);
    expect(isFiltered({ ...NO_FILTERS, status: 'blocklisted' })).toBe(true);
    expect(isFiltered({ ...NO_FILTERS, subscription: 'pending' })).toBe(true);
    expect(isFiltered({ ...NO_FILTERS, listId: 'x' })).toBe(true);
  });
});

describe('keyset order and cursors', () => {
  it('orders newest first by (created_at, id) and flips when reading backwards', () => {
    expect(orderFor('created-desc')).toEqual([
      { column: 'created_at', ascending: false },
      { column: 'id', ascending: false },
    ]);
    expect(orderFor('created-desc', 'before')).toEqual([
      { column: 'created_at', ascending: true },
      { column: 'id', ascending: true },
    ]);
    expect(orderFor('created-asc')[0]).toEqual({ column: 'created_at', ascending: true });
    expect(orderFor('email-asc')).toEqual([{ column: 'email', ascending: true }]);
    expect(orderFor('email-asc', 'before')).toEqual([{ column: 'email', ascending: false }]);
  });

  it('continues after the last row with a tie-break on id', () => {
    expect(cursorFilter('created-desc', cursorAfter(row))).toEqual({
      or: `created_at.lt."2026-11-22T10:00:00.123456+00:00",and(created_at.eq."2026-11-22T10:00:00.123456+00:00",id.lt."${row.id}")`,
    });
    expect(cursorFilter('created-asc', cursorAfter(row))).toEqual({
      or: `created_at.gt."2026-11-22T10:00:00.123456+00:00",and(created_at.eq."2026-11-22T10:00:00.123456+00:00",id.gt."${row.id}")`,
    });
    expect(cursorFilter('created-desc', cursorBefore(row))).toMatchObject({
      or: expect.stringMatching(/^created_at\.gt\..*id\.gt\./),
    });
  });

  it('uses the unique email alone for the email order', () => {
    expect(cursorFilter('email-asc', cursorAfter(row))).toEqual({
      column: 'email',
      op: 'gt',
      value: 'ada@example.com',
    });
    expect(cursorFilter('email-asc', cursorBefore(row))).toEqual({
      column: 'email',
      op: 'lt',
      value: 'ada@example.com',
    });
  });
});

describe('toPage', () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => i);

  it('the first page: a next page only when the extra row came back', () => {
    expect(toPage(rows(4), null, 3)).toEqual({
      rows: [0, 1, 2],
      hasNext: true,
      hasPrevious: false,
    });
    expect(toPage(rows(3), null, 3)).toEqual({
      rows: [0, 1, 2],
      hasNext: false,
      hasPrevious: false,
    });
    expect(toPage([], null, 3)).toEqual({ rows: [], hasNext: false, hasPrevious: false });
  });

  it('after a cursor: there is always a page before', () => {
    expect(toPage(rows(2), cursorAfter(row), 3)).toEqual({
      rows: [0, 1],
      hasNext: false,
      hasPrevious: true,
    });
  });

  it('before a cursor: rows come back reversed, the extra row means more before', () => {
    expect(toPage([5, 4, 3, 2], cursorBefore(row), 3)).toEqual({
      rows: [3, 4, 5],
      hasNext: true,
      hasPrevious: true,
    });
    expect(toPage([5, 4], cursorBefore(row), 3)).toEqual({
      rows: [4, 5],
      hasNext: true,
      hasPrevious: false,
    });
  });
});
