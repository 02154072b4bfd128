// Exports of the subscribers page (SPEC §7 export-subscribers): the page's filters in the function's
// terms, and the call that writes the CSV to the private `exports` bucket and answers a signed URL.
import type { SupabaseClient } from '@supabase/supabase-js';
import {
  isCount,
  isRecord,
  isString,
  readFunctionResult,
  toFunctionQueryError,
} from '../functions';
import type { SubscriberFilters } from './subscriber-query';

/** The function's filters (supabase/functions/README.md): a list by slug, not by id. */
export interface ExportFilters {
  list?: string;
  status?: 'pending' | 'confirmed' | 'unsubscribed';
  subscriber_status?: 'enabled' | 'blocklisted';
  search?: string;
}

export interface ExportResult {
  url: string;
  rows: number;
  expiresIn: number;
}

/**
 * What the table shows, as the function's filters: the list id becomes its slug, the subscription
 * status keeps its meaning (on that list, or on any list without one), the search is the same
 * case-insensitive "email or name contains". Sorting does not change which rows match.
 */
export function exportFilters(
  filters: SubscriberFilters,
  lists: ReadonlyArray<{ id: string; slug: string }>,
): ExportFilters {
  const out: ExportFilters = {};
  if (filters.listId !== null) {
    const list = lists.find((l) => l.id === filters.listId);
    if (!list) throw new Error('The chosen list is no longer there: pick it again.');
    out.list = list.slug;
  }
  if (filters.subscription !== null) out.status = filters.subscription;
  if (filters.status !== null) out.subscriber_status = filters.status;
  const search = filters.search.trim();
  if (search) out.search = search;
  return out;
}

function parseExport(data: unknown): ExportResult | null {
  if (!isRecord(data) || !isString(data.url) || !isCount(data.rows)) return null;
  return {
    url: data.url,
    rows: data.rows,
    expiresIn: typeof data.expires_in === 'number' ? data.expires_in : 3600,
  };
}

export async function exportSubscribers(
  client: SupabaseClient,
  filters: ExportFilters,
): Promise<ExportResult> {
  const outcome = await readFunctionResult(
    await client.functions.invoke('export-subscribers', { body: { filters } }),
    parseExport,
    { notDeployed: 'Exports are not available: the export-subscribers function is not deployed.' },
  );
  if (!outcome.ok) throw toFunctionQueryError(outcome);
  return outcome.data;
}
