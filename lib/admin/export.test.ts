// Unit tests for the page's filters in export-subscribers' terms.
import { describe, expect, it } from 'vitest';
import { exportFilters } from './export';
import { NO_FILTERS } from './subscriber-query';

const lists = [
  { id: 'id-news', slug: 'newsletter' },
  { id: 'id-beta', slug: 'beta-testers' },
];

describe('exportFilters', () => {
  it('sends nothing for an unfiltered table (sorting does not matter)', () => {
    expect(exportFilters({ ...NO_FILTERS, sort: 'email-asc' }, lists)).toEqual({});
  });

  it('names the list by slug and keeps the statuses and the trimmed search', () => {
    expect(
      exportFilters(
        {
          search: '  ada ',
          listId: 'id-beta',
          subscription: 'confirmed',
          status: 'enabled',
          sort: 'created-desc',
        },
        lists,
      ),
    ).toEqual({
      list: 'beta-testers',
      status: 'confirmed',
      subscriber_status: 'enabled',
      search: 'ada',
    });
  });

  it('keeps a subscription status without a list (any list) and a blocklist filter', () => {
    expect(
      exportFilters({ ...NO_FILTERS, subscription: 'pending', status: 'blocklisted' }, lists),
    ).toEqual({ status: 'pending', subscriber_status: 'blocklisted' });
  });

  it('refuses a list that is no longer there rather than exporting everyone', () => {
    expect(() => exportFilters({ ...NO_FILTERS, listId: 'gone' }, lists)).toThrow(/no longer/);
  });
});
