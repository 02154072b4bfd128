// What export-subscribers is asked for: a rule set (`rules`, the subscribers page's one filter
// format) or the older `filters` object, which is turned into the same rules, so both go through
// the one SQL compiler (lib/admin/subscriber-rules.ts, 20261127400110).
import { adminClient } from '../_shared/db.ts';
import { AppError, invalidInput } from '../_shared/errors.ts';
import {
  rulesFromFilters,
  rulesShapeProblem,
  type RuleGroup,
} from '../../../lib/admin/subscriber-rules.ts';

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const STATUSES = ['pending', 'confirmed', 'unsubscribed'] as const;
const SUBSCRIBER_STATUSES = ['enabled', 'blocklisted'] as const;

/** The older filters: a list by slug, a subscription status, a subscriber status, a search. */
export interface ExportFilters {
  list?: string;
  status?: (typeof STATUSES)[number];
  subscriber_status?: (typeof SUBSCRIBER_STATUSES)[number];
  search?: string;
}

export function parseFilters(value: unknown): ExportFilters {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidInput('filters', 'must be an object');
  const raw = value as Record<string, unknown>;
  const filters: ExportFilters = {};
  for (const key of Object.keys(raw)) {
    if (!['list', 'status', 'subscriber_status', 'search'].includes(key)) {
      throw invalidInput(`filters.${key}`, 'is not a known filter');
    }
  }
  if (raw.list !== undefined) {
    if (typeof raw.list !== 'string' || raw.list.length > 48 || !SLUG.test(raw.list))
      throw invalidInput('filters.list', 'must be a list slug');
    filters.list = raw.list;
  }
  if (raw.status !== undefined) {
    if (!STATUSES.includes(raw.status as never))
      throw invalidInput('filters.status', 'must be pending, confirmed or unsubscribed');
    filters.status = raw.status as ExportFilters['status'];
  }
  if (raw.subscriber_status !== undefined) {
    if (!SUBSCRIBER_STATUSES.includes(raw.subscriber_status as never))
      throw invalidInput('filters.subscriber_status', 'must be enabled or blocklisted');
    filters.subscriber_status = raw.subscriber_status as ExportFilters['subscriber_status'];
  }
  if (raw.search !== undefined) {
    if (typeof raw.search !== 'string' || raw.search.length > 200)
      throw invalidInput('filters.search', 'must be text of at most 200 characters');
    if (raw.search.trim()) filters.search = raw.search.trim();
  }
  return filters;
}

/** The older filters as rules; a list slug becomes its id (`list_not_found` when there is none). */
async function rulesOfFilters(filters: ExportFilters): Promise<RuleGroup> {
  let listId: string | null = null;
  if (filters.list) {
    // Service role: only to turn a slug into an id; the export itself runs as the caller.
    const { data, error } = await adminClient()
      .from('lists')
      .select('id')
      .eq('slug', filters.list)
      .maybeSingle();
    if (error) throw new AppError('internal');
    if (!data) throw new AppError('list_not_found');
    listId = data.id as string;
  }
  return rulesFromFilters({
    search: filters.search ?? '',
    listId,
    subscription: filters.status ?? null,
    status: filters.subscriber_status ?? null,
  });
}

/** The rules of a request body: `rules` (checked for shape here, in full by SQL) or `filters`. */
export async function exportRules(body: Record<string, unknown>): Promise<RuleGroup> {
  if (body.rules !== undefined && body.filters !== undefined) {
    throw invalidInput('rules', 'send rules or filters, not both');
  }
  if (body.rules !== undefined) {
    const problem = rulesShapeProblem(body.rules);
    if (problem) throw invalidInput('rules', problem);
    return body.rules as RuleGroup;
  }
  return await rulesOfFilters(parseFilters(body.filters));
}
