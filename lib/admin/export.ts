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
import { formatCount } from './format';
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

/** The "Export CSV" button's export (lib/admin/use-export.ts). */
export type ExportState =
  | { status: 'idle' }
  /** `rows`: written so far, once the function has reported any. */
  | { status: 'pending'; rows: number | null }
  | { status: 'ready'; result: ExportResult }
  | { status: 'error'; message: string };

/**
 * The state after a progress broadcast (`{ rows }`). Only a running export takes it, and only a
 * count higher than the last: broadcasts are fire-and-forget requests, so one can arrive after a
 * later one or after the answer, and must not move the bar back or turn a finished export into a
 * running one. A payload without a row count changes nothing.
 */
export function withReportedRows(state: ExportState, payload: unknown): ExportState {
  const rows = isRecord(payload) ? payload.rows : undefined;
  if (state.status !== 'pending' || !isCount(rows)) return state;
  if (state.rows !== null && rows <= state.rows) return state;
  return { status: 'pending', rows };
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

/** `progress`: a UUID whose topic (exportProgressTopic) hears the rows written so far. */
export async function exportSubscribers(
  client: SupabaseClient,
  filters: ExportFilters,
  progress?: string,
): Promise<ExportResult> {
  const outcome = await readFunctionResult(
    await client.functions.invoke('export-subscribers', { body: { filters, progress } }),
    parseExport,
    { notDeployed: 'Exports are not available: the export-subscribers function is not deployed.' },
  );
  if (!outcome.ok) throw toFunctionQueryError(outcome);
  return outcome.data;
}

/**
 * What the page shows while an export runs: rows written so far against the table's count of
 * matching subscribers (which may have moved since: never past 100 %, and without a share once
 * the rows outnumber it).
 */
export function exportProgressView(
  rows: number | null,
  total: number | null,
): { text: string; percent: number | null } {
  if (rows === null) {
    // An empty bar already, so the line keeps its height when the first report fills it.
    return total === null || total === 0
      ? { text: 'Preparing the CSV…', percent: null }
      : { text: `Preparing ${formatCount(total)} rows…`, percent: 0 };
  }
  if (total === null || total === 0 || rows > total) {
    return { text: `${formatCount(rows)} rows written`, percent: null };
  }
  return {
    text: `${formatCount(rows)} of ${formatCount(total)} rows`,
    percent: Math.floor((rows / total) * 100),
  };
}
