// The subscribers page's filters in its address (`/admin/subscribers/?list=<id or slug>&status=…&q=…`),
// so a link from the dashboard or the lists page lands filtered and a filtered page can be shared.
import {
  NO_FILTERS,
  SORTS,
  SUBSCRIBER_STATUSES,
  SUBSCRIPTION_STATUSES,
  type SubscriberFilters,
  type SubscriberSort,
  type SubscriberStatus,
  type SubscriptionStatus,
} from './subscriber-query';

export type UrlQuery = Record<string, string | string[] | undefined>;

function one(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
}

/**
 * The filters a query string asks for. `list` is a list's id or slug (unknown ones are ignored);
 * `status` is a subscription status (`pending`, `confirmed`, `unsubscribed`) or a subscriber status
 * (`enabled`, `blocklisted`) — the two sets do not overlap, so one parameter serves both, and
 * `subscription=` says the former explicitly. `q` is the search and `sort` one of the sorts.
 */
export function filtersFromQuery(
  query: UrlQuery,
  lists: ReadonlyArray<{ id: string; slug: string }>,
): SubscriberFilters {
  const filters: SubscriberFilters = { ...NO_FILTERS };
  const list = one(query.list);
  if (list) {
    const found = lists.find((l) => l.id === list || l.slug === list.toLowerCase());
    if (found) filters.listId = found.id;
  }
  for (const value of [one(query.status), one(query.subscription)]) {
    if ((SUBSCRIPTION_STATUSES as readonly string[]).includes(value)) {
      filters.subscription = value as SubscriptionStatus;
    } else if ((SUBSCRIBER_STATUSES as readonly string[]).includes(value)) {
      filters.status = value as SubscriberStatus;
    }
  }
  filters.search = one(query.q).slice(0, 200);
  // A tag or segment id (issue 24); a wrong one is refused by the database and shown as an error.
  const uuid = /^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
  if (uuid.test(one(query.tag))) filters.tagId = one(query.tag);
  if (uuid.test(one(query.segment))) filters.segmentId = one(query.segment);
  const sort = one(query.sort);
  if (SORTS.some((s) => s.value === sort)) filters.sort = sort as SubscriberSort;
  return filters;
}

/** The query string of the filters: the list by slug, defaults left out. */
export function queryFromFilters(
  filters: SubscriberFilters,
  lists: ReadonlyArray<{ id: string; slug: string }>,
): Record<string, string> {
  const query: Record<string, string> = {};
  const list = lists.find((l) => l.id === filters.listId);
  if (list) query.list = list.slug;
  if (filters.subscription) query.subscription = filters.subscription;
  if (filters.status) query.status = filters.status;
  if (filters.search.trim()) query.q = filters.search.trim();
  if (filters.tagId) query.tag = filters.tagId;
  if (filters.segmentId) query.segment = filters.segmentId;
  if (filters.sort !== NO_FILTERS.sort) query.sort = filters.sort;
  return query;
}

/** True when the query string names any filter (the page then waits for the lists to read it). */
export function hasFilterQuery(query: UrlQuery): boolean {
  return ['list', 'status', 'subscription', 'q', 'sort'].some((k) => one(query[k]) !== '');
}
