// Unit tests for the subscribers page's filters in its address.
import { describe, expect, it } from 'vitest';
import { NO_FILTERS } from './subscriber-query';
import { filtersFromQuery, hasFilterQuery, queryFromFilters } from './subscriber-url';

const lists = [
  { id: '11111111-1111-4111-8111-111111111111', slug: 'newsletter' },
  { id: '22222222-2222-4222-8222-222222222222', slug: 'early-access' },
];

describe('filtersFromQuery', () => {
  it('reads a list by slug or id and a subscription status', () => {
    expect(filtersFromQuery({ list: 'early-access', status: 'pending' }, lists)).toEqual({
      ...NO_FILTERS,
      listId: lists[1]!.id,
      subscription: 'pending',
    });
    expect(filtersFromQuery({ list: lists[0]!.id }, lists).listId).toBe(lists[0]!.id);
    expect(filtersFromQuery({ list: 'Newsletter' }, lists).listId).toBe(lists[0]!.id);
  });

  it('reads a subscriber status from status= and both from subscription= and status=', () => {
    expect(filtersFromQuery({ status: 'blocklisted' }, lists)).toMatchObject({
      status: 'blocklisted',
      subscription: null,
    });
    expect(
      filtersFromQuery({ subscription: 'confirmed', status: 'enabled', q: ' ada ' }, lists),
    ).toMatchObject({ subscription: 'confirmed', status: 'enabled', search: 'ada' });
  });

  it('ignores unknown lists, statuses and sorts', () => {
    expect(filtersFromQuery({ list: 'nope', status: 'weird', sort: 'x' }, lists)).toEqual(
      NO_FILTERS,
    );
    expect(filtersFromQuery({ list: ['newsletter', 'early-access'] }, lists).listId).toBe(
      lists[0]!.id,
    );
  });
});

describe('queryFromFilters', () => {
  it('writes only what differs from the defaults, the list by slug, and reads back the same', () => {
    expect(queryFromFilters(NO_FILTERS, lists)).toEqual({});
    const filters = {
      search: 'ada',
      listId: lists[0]!.id,
      subscription: 'unsubscribed' as const,
      status: 'enabled' as const,
      sort: 'email-asc' as const,
    };
    const query = queryFromFilters(filters, lists);
    expect(query).toEqual({
      list: 'newsletter',
      subscription: 'unsubscribed',
      status: 'enabled',
      q: 'ada',
      sort: 'email-asc',
    });
    expect(filtersFromQuery(query, lists)).toEqual(filters);
  });
});

describe('hasFilterQuery', () => {
  it('is true when any filter parameter has a value', () => {
    expect(hasFilterQuery({})).toBe(false);
    expect(hasFilterQuery({ list: '' })).toBe(false);
    expect(hasFilterQuery({ list: 'newsletter' })).toBe(true);
    expect(hasFilterQuery({ id: 'x' })).toBe(false);
  });
});
