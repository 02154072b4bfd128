// Bulk actions of the subscribers page (issue 23): one action over the subscribers matching a rule
// set (the selected rows, or every match of the filter), run by bulk_update_subscribers in batches
// walked by id, so the page can show progress and no request outlives its statement timeout.
import type { SupabaseClient } from '@supabase/supabase-js';
import { toQueryError } from '../use-query';
import type { RuleGroup } from './subscriber-rules';

export type BulkAction =
  | 'add'
  | 'remove'
  | 'confirm'
  | 'unsubscribe'
  | 'blocklist'
  | 'delete'
  // Issue 24: add or remove a tag (by name; adding creates it), run by tag_subscribers.
  | 'tag'
  | 'untag';

export interface BulkOptions {
  /** add and remove: the list; confirm and unsubscribe: one list, or every list when null. */
  list?: string | null;
  /** add: the new subscriptions' status. */
  status?: 'confirmed' | 'pending';
  /** tag and untag: the tag's name. */
  tag?: string;
}

export interface BulkProgress {
  /** Matching subscribers handled so far. */
  processed: number;
  /** Of those, how many the action changed. */
  changed: number;
}

/**
 * Matches a batch takes: 5,000 take 1-2 s on a busy native Postgres (bench/bulk.ts), so the bar
 * moves often and a batch stays far from any request timeout.
 */
export const BULK_BATCH = 5_000;

interface BatchAnswer {
  processed: number;
  changed: number;
  last_id: string | null;
  done: boolean;
}

function isBatchAnswer(value: unknown): value is BatchAnswer {
  const v = value as Partial<BatchAnswer> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.processed === 'number' &&
    typeof v.changed === 'number' &&
    typeof v.done === 'boolean'
  );
}

/**
 * Runs `action` on every subscriber matching `rules`, batch after batch, reporting the running
 * totals after each. A failed batch throws (earlier batches stay done; the totals say how far it
 * got through `onProgress`).
 */
export async function runBulk(
  client: SupabaseClient,
  action: BulkAction,
  rules: RuleGroup,
  options: BulkOptions = {},
  onProgress: (progress: BulkProgress) => void = () => {},
  batch = BULK_BATCH,
): Promise<BulkProgress> {
  const total: BulkProgress = { processed: 0, changed: 0 };
  let after: string | null = null;
  for (;;) {
    const tagging = action === 'tag' || action === 'untag';
    const answer: { data: unknown; error: unknown; status: number } = tagging
      ? await client.rpc('tag_subscribers', {
          p_action: action === 'tag' ? 'add' : 'remove',
          p_tags: [options.tag ?? ''],
          p_rules: rules,
          p_after: after,
          p_limit: batch,
        })
      : await client.rpc('bulk_update_subscribers', {
          p_action: action,
          p_rules: rules,
          p_list: options.list ?? null,
          p_status: options.status ?? 'confirmed',
          p_after: after,
          p_limit: batch,
        });
    const { data, error, status } = answer;
    if (error) throw toQueryError(error, status);
    if (!isBatchAnswer(data)) throw new Error('The bulk action answered in an unknown shape.');
    total.processed += data.processed;
    total.changed += data.changed;
    onProgress({ ...total });
    if (data.done || !data.last_id) return total;
    after = data.last_id;
  }
}

/** What the page announces after an action (`listName`: the tag's name for tag and untag). */
export function bulkDoneText(action: BulkAction, changed: number, listName?: string): string {
  const who = `${changed.toLocaleString('en')} ${changed === 1 ? 'subscriber' : 'subscribers'}`;
  if (changed === 0) return 'Nothing to change: the subscribers already were that way.';
  switch (action) {
    case 'add':
      return `${who} added to ${listName ?? 'the list'}.`;
    case 'remove':
      return `${who} removed from ${listName ?? 'the list'}.`;
    case 'confirm':
      return `${who} confirmed${listName ? ` on ${listName}` : ''}.`;
    case 'unsubscribe':
      return `${who} unsubscribed from ${listName ?? 'all lists'}.`;
    case 'blocklist':
      return `${who} blocklisted.`;
    case 'delete':
      return `${who} deleted.`;
    case 'tag':
      return `${who} tagged ${listName ?? ''}.`;
    case 'untag':
      return `Tag ${listName ?? ''} removed from ${who}.`;
  }
}

/** The sentence of a bulk action's confirmation, e.g. "Blocklist 1,234 subscribers?". */
export function bulkQuestion(action: BulkAction, count: number, listName?: string): string {
  const who = `${count.toLocaleString('en')} ${count === 1 ? 'subscriber' : 'subscribers'}`;
  switch (action) {
    case 'add':
      return `Add ${who} to ${listName ?? 'the list'}?`;
    case 'remove':
      return `Remove ${who} from ${listName ?? 'the list'}?`;
    case 'confirm':
      return `Confirm the pending subscriptions of ${who}${listName ? ` on ${listName}` : ''}?`;
    case 'unsubscribe':
      return `Unsubscribe ${who} from ${listName ?? 'all lists'}?`;
    case 'blocklist':
      return `Blocklist ${who}?`;
    case 'delete':
      return `Delete ${who}?`;
    case 'tag':
      return `Tag ${who} ${listName ?? ''}?`;
    case 'untag':
      return `Remove the tag ${listName ?? ''} from ${who}?`;
  }
}
