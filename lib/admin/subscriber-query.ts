// Pure rules of the subscribers table (SPEC §2, §9): filters, search patterns, sort orders and
// keyset cursors turned into PostgREST filter strings, and a fetched window turned into a page.

/** SPEC §9: the admin shows 50 rows a page. One more is fetched to know whether another page exists. */
export const PAGE_SIZE = 50;

export type SubscriptionStatus = 'pending' | 'confirmed' | 'unsubscribed';
export type SubscriberStatus = 'enabled' | 'blocklisted';
export type SubscriberSort = 'created-desc' | 'created-asc' | 'email-asc';

export const SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = [
  'pending',
  'confirmed',
  'unsubscribed',
];
export const SUBSCRIBER_STATUSES: readonly SubscriberStatus[] = ['enabled', 'blocklisted'];
export const SORTS: ReadonlyArray<{ value: SubscriberSort; label: string }> = [
  { value: 'created-desc', label: 'Newest first' },
  { value: 'created-asc', label: 'Oldest first' },
  { value: 'email-asc', label: 'Email A–Z' },
];

export interface SubscriberFilters {
  /** Free text matched against email and name (case-insensitive substring). */
  search: string;
  /** A list id: only subscribers with a subscription on it. */
  listId: string | null;
  /** With `listId`, the status on that list; without, a subscription on any list in that status. */
  subscription: SubscriptionStatus | null;
  status: SubscriberStatus | null;
  /** Issue 24: only subscribers with this tag / matching this saved segment. */
  tagId?: string | null;
  segmentId?: string | null;
  sort: SubscriberSort;
}

export const NO_FILTERS: SubscriberFilters = {
  search: '',
  listId: null,
  subscription: null,
  status: null,
  sort: 'created-desc',
};

/** True when anything narrows the table (the empty state then offers "Clear filters"). */
export function isFiltered(filters: SubscriberFilters): boolean {
  return (
    filters.search.trim() !== '' ||
    filters.listId !== null ||
    filters.subscription !== null ||
    filters.status !== null ||
    Boolean(filters.tagId) ||
    Boolean(filters.segmentId)
  );
}

/** Where a page starts: after the last row of the page before, or before the first row of the next. */
export interface Cursor {
  direction: 'after' | 'before';
  createdAt: string;
  id: string;
  email: string;
}

/** The row fields a cursor is made of. */
export interface CursorRow {
  id: string;
  email: string;
  created_at: string;
}

export function cursorAfter(row: CursorRow): Cursor {
  return { direction: 'after', createdAt: row.created_at, id: row.id, email: row.email };
}

export function cursorBefore(row: CursorRow): Cursor {
  return { direction: 'before', createdAt: row.created_at, id: row.id, email: row.email };
}

/**
 * A LIKE pattern matching `text` literally anywhere: `\`, `%` and `_` are escaped. PostgREST turns
 * every `*` of a like/ilike value into `%` with no way to escape it, so a typed `*` becomes `_`
 * (any one character), which still finds addresses that contain a star.
 */
export function containsPattern(text: string): string {
  const escaped = text.replace(/[\\%_]/g, (ch) => `\\${ch}`).replace(/\*/g, '_');
  return `*${escaped}*`;
}

/**
 * A value inside a PostgREST logic tree (`or=(…)`) is double-quoted, with `"` and `\` escaped, so
 * commas, dots, colons and parentheses in it (timestamps, addresses, search text) stay literal.
 */
export function quoteValue(value: string): string {
  return `"${value.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`;
}

/** The `or` filter for the search box: email or name contains the text; null when there is none. */
export function searchFilter(search: string): string | null {
  const text = search.trim();
  if (!text) return null;
  const pattern = quoteValue(containsPattern(text));
  return `email.ilike.${pattern},name.ilike.${pattern}`;
}

/** The column order of a sort, as PostgREST `order` calls, for the given reading direction. */
export function orderFor(
  sort: SubscriberSort,
  direction: 'after' | 'before' = 'after',
): Array<{ column: 'created_at' | 'id' | 'email'; ascending: boolean }> {
  // Reading backwards (the page before a cursor) flips the order; the page is reversed after.
  const flip = direction === 'before';
  if (sort === 'email-asc') return [{ column: 'email', ascending: !flip }];
  const ascending = (sort === 'created-asc') !== flip;
  return [
    { column: 'created_at', ascending },
    { column: 'id', ascending },
  ];
}

/**
 * The keyset condition of a cursor as an `or` filter string, or a single `{column, op, value}`
 * when one column suffices (email is unique, so it is its own tie-breaker).
 */
export function cursorFilter(
  sort: SubscriberSort,
  cursor: Cursor,
): { or: string } | { column: 'email'; op: 'gt' | 'lt'; value: string } {
  const ascending = orderFor(sort, cursor.direction)[0]!.ascending;
  const op = ascending ? 'gt' : 'lt';
  if (sort === 'email-asc') return { column: 'email', op, value: cursor.email };
  const at = quoteValue(cursor.createdAt);
  const id = quoteValue(cursor.id);
  return { or: `created_at.${op}.${at},and(created_at.eq.${at},id.${op}.${id})` };
}

export interface Page<T> {
  rows: T[];
  /** A page exists after the last row / before the first row. */
  hasNext: boolean;
  hasPrevious: boolean;
}

/**
 * Turns up to PAGE_SIZE + 1 fetched rows into a page in display order. Reading forwards, the
 * extra row means a next page; reading backwards (fetched in reverse), it means a previous one.
 */
export function toPage<T>(fetched: T[], cursor: Cursor | null, pageSize = PAGE_SIZE): Page<T> {
  const more = fetched.length > pageSize;
  const rows = fetched.slice(0, pageSize);
  if (cursor?.direction === 'before') {
    return { rows: rows.reverse(), hasNext: true, hasPrevious: more };
  }
  return { rows, hasNext: more, hasPrevious: cursor !== null };
}
