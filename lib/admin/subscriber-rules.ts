// The subscriber filter rule format (issue 23, extended for segments in issue 24; compiled to SQL
// by 20261127400110 and 20261128100400): its types, the
// subscribers page's filters and a selection of rows written as rules, and the shape check the
// export function applies before sending rules to the database (which checks everything again).
// No imports, so the edge functions (Deno) use this file as it is.

export type RuleMatch = 'all' | 'any';

/** An absolute time (ISO 8601 date or date-time) or "n days before now". */
export type RuleDate = string | { days_ago: number };

export interface SubscriptionCondition {
  list?: string;
  status?: 'pending' | 'confirmed' | 'unsubscribed';
  subscribed_before?: RuleDate;
  subscribed_after?: RuleDate;
  confirmed_before?: RuleDate;
  confirmed_after?: RuleDate;
}

export type Rule =
  | { field: 'search'; op: 'contains'; value: string }
  | {
      field: 'email' | 'name';
      op: 'eq' | 'neq' | 'contains' | 'not_contains' | 'starts_with' | 'ends_with';
      value: string;
    }
  | { field: 'name'; op: 'empty' | 'not_empty' }
  | { field: 'status'; op: 'eq' | 'neq'; value: 'enabled' | 'blocklisted' }
  | { field: 'created_at'; op: 'before' | 'after'; value: RuleDate }
  | { field: 'subscription'; op: 'has' | 'has_not'; value: SubscriptionCondition }
  | { field: `attributes.${string}`; op: 'exists' | 'not_exists' }
  | {
      field: `attributes.${string}`;
      op: 'eq' | 'neq' | 'contains' | 'not_contains' | 'gt' | 'lt' | 'before' | 'after';
      value: string | number | boolean | RuleDate;
    }
  | { field: 'id'; op: 'in'; value: string[] }
  // Issue 24: tags, where the subscriber came from, referrals, waitlist place, engagement, segments.
  | { field: 'tag'; op: 'has' | 'has_not'; value: string }
  | { field: 'source'; op: 'eq' | 'neq'; value: SubscriberSource }
  | { field: 'referrals' | 'received'; op: 'gt' | 'lt'; value: number }
  | { field: 'waitlist_position'; op: 'gt' | 'lt'; value: { list: string; position: number } }
  | { field: 'opened' | 'clicked'; op: 'since' | 'not_since'; value: RuleDate }
  | { field: 'segment'; op: 'in' | 'not_in'; value: string };

/** subscribers.signup_source: the signup form, a CSV import, a team member, anything else. */
export type SubscriberSource = 'form' | 'import' | 'team' | 'api';

export interface RuleGroup {
  match: RuleMatch;
  rules: Array<Rule | RuleGroup>;
}

/** Matches every subscriber. */
export const EVERYONE: RuleGroup = { match: 'all', rules: [] };

/** The page's filter bar, as far as it narrows the rows (sorting does not). */
export interface FilterBarValues {
  search: string;
  listId: string | null;
  subscription: 'pending' | 'confirmed' | 'unsubscribed' | null;
  status: 'enabled' | 'blocklisted' | null;
  /** A tag the subscribers have (issue 24). */
  tagId?: string | null;
  /** A saved segment the subscribers match (issue 24). */
  segmentId?: string | null;
}

/**
 * The filter bar as rules: the search box (email or name contains), a list and/or a subscription
 * status (a subscription on that list, in that status; without a list, on any list), and the
 * subscriber's status, a tag and a segment, all required.
 */
export function rulesFromFilters(filters: FilterBarValues): RuleGroup {
  const rules: Rule[] = [];
  const search = filters.search.trim();
  if (search) rules.push({ field: 'search', op: 'contains', value: search });
  if (filters.listId !== null || filters.subscription !== null) {
    const value: SubscriptionCondition = {};
    if (filters.listId !== null) value.list = filters.listId;
    if (filters.subscription !== null) value.status = filters.subscription;
    rules.push({ field: 'subscription', op: 'has', value });
  }
  if (filters.status !== null) rules.push({ field: 'status', op: 'eq', value: filters.status });
  if (filters.tagId) rules.push({ field: 'tag', op: 'has', value: filters.tagId });
  if (filters.segmentId) rules.push({ field: 'segment', op: 'in', value: filters.segmentId });
  return { match: 'all', rules };
}

/** The selected rows as rules (the compiler takes at most 1,000 ids). */
export function rulesForIds(ids: readonly string[]): RuleGroup {
  return { match: 'all', rules: [{ field: 'id', op: 'in', value: [...ids] }] };
}

/** Largest rule set accepted before the database looks at it (20 conditions are far smaller). */
export const MAX_RULES_BYTES = 64 * 1024;

/**
 * Null when `value` has the outer shape of a rule group ({match, rules: []}, not too large), else
 * what is wrong. Fields, operators and values are the database compiler's to judge, with paths.
 */
export function rulesShapeProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'must be a group {"match": "all" | "any", "rules": […]}';
  }
  const group = value as Record<string, unknown>;
  if (group.match !== 'all' && group.match !== 'any') return 'match must be all or any';
  if (!Array.isArray(group.rules)) return 'rules must be a list';
  if (JSON.stringify(value).length > MAX_RULES_BYTES) return 'is too large';
  return null;
}
