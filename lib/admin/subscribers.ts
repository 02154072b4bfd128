// Reads and writes of the subscribers table (SPEC §2, §6), each one PostgREST request where it can
// be; they take the client so the hooks pass the browser's and the integration tests a member's.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Tables } from '../database.types';
import { checkEmail } from '../email';
import { MESSAGES, nameProblem } from '../subscribe';
import { toQueryError, unwrap, type QueryError } from '../use-query';
import {
  cursorFilter,
  orderFor,
  PAGE_SIZE,
  searchFilter,
  toPage,
  type Cursor,
  type Page,
  type SubscriberFilters,
  type SubscriptionStatus,
} from './subscriber-query';

export type SubscriberRow = Pick<
  Tables<'subscribers'>,
  'id' | 'email' | 'name' | 'status' | 'created_at'
> & { subscriptions: Array<Pick<Tables<'subscriptions'>, 'list_id' | 'status'>> };

const ROW_COLUMNS = 'id,email,name,status,created_at,subscriptions(list_id,status)';

/**
 * The subscribers query with the filters applied. A list or subscription-status filter joins the
 * subscriptions a second time under the alias `match` (inner), so the row still shows every list.
 */
function filtered(
  client: SupabaseClient,
  filters: SubscriberFilters,
  columns: string,
  head = false,
) {
  const join = filters.listId !== null || filters.subscription !== null;
  let query = client
    .from('subscribers')
    .select(join ? `${columns},match:subscriptions!inner(list_id)` : columns, {
      count: head ? 'exact' : undefined,
      head,
    });
  if (filters.listId !== null) query = query.eq('match.list_id', filters.listId);
  if (filters.subscription !== null) query = query.eq('match.status', filters.subscription);
  if (filters.status !== null) query = query.eq('status', filters.status);
  const search = searchFilter(filters.search);
  if (search) query = query.or(search);
  return query;
}

/** One page of subscribers (SPEC §9: 50, keyset), in display order. */
export async function listSubscribers(
  client: SupabaseClient,
  filters: SubscriberFilters,
  cursor: Cursor | null,
): Promise<Page<SubscriberRow>> {
  let query = filtered(client, filters, ROW_COLUMNS);
  if (cursor) {
    const keyset = cursorFilter(filters.sort, cursor);
    query =
      'or' in keyset ? query.or(keyset.or) : query.filter(keyset.column, keyset.op, keyset.value);
  }
  for (const { column, ascending } of orderFor(filters.sort, cursor?.direction)) {
    query = query.order(column, { ascending });
  }
  const rows = unwrap(await query.limit(PAGE_SIZE + 1)) as unknown as Array<
    SubscriberRow & { match?: unknown }
  > | null;
  // The `match` join only filters; drop it so rows look the same with and without a list filter.
  const clean = (rows ?? []).map(({ match: _match, ...row }) => row);
  return toPage(clean, cursor);
}

/** How many subscribers match the filters (all pages). */
export async function countSubscribers(
  client: SupabaseClient,
  filters: SubscriberFilters,
): Promise<number> {
  const { count, error, status } = await filtered(client, filters, 'id', true);
  if (error) throw toQueryError(error, status);
  return count ?? 0;
}

export type BulkAction = 'unsubscribe' | 'blocklist' | 'delete';

/** Runs a bulk action on the selected subscribers in one request; answers how many rows changed. */
export async function runBulkAction(
  client: SupabaseClient,
  action: BulkAction,
  ids: string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  let result: { data: unknown[] | null; error: unknown };
  if (action === 'unsubscribe') {
    result = await client
      .from('subscriptions')
      .update({ status: 'unsubscribed' })
      .in('subscriber_id', ids)
      .neq('status', 'unsubscribed')
      .select('subscriber_id');
  } else if (action === 'blocklist') {
    // The database unsubscribes a blocklisted address from every list (trigger).
    result = await client
      .from('subscribers')
      .update({ status: 'blocklisted' })
      .in('id', ids)
      .neq('status', 'blocklisted')
      .select('id');
  } else {
    result = await client.from('subscribers').delete().in('id', ids).select('id');
  }
  return unwrap(result)?.length ?? 0;
}

export interface NewSubscriber {
  email: string;
  name: string;
  listIds: string[];
  status: Extract<SubscriptionStatus, 'pending' | 'confirmed'>;
}

export type AddSubscriberResult =
  | { ok: true; id: string }
  | { ok: false; field: 'email' | 'name' | 'lists' | null; message: string; id?: string };

export const ADD_MESSAGES = {
  invalid_email: 'Enter a valid email address.',
  duplicate: 'That address is already a subscriber.',
  name_control: MESSAGES.name_control,
} as const;

/** The database's refusal of a new subscriber, placed at the field it concerns (SPEC §8). */
export function addErrorFor(error: QueryError): Extract<AddSubscriberResult, { ok: false }> {
  if (error.code === '23505') return { ok: false, field: 'email', message: ADD_MESSAGES.duplicate };
  if (error.code === '23514' && /email/.test(error.message)) {
    return { ok: false, field: 'email', message: ADD_MESSAGES.invalid_email };
  }
  if (error.code === '23514' && /name/.test(error.message)) {
    return { ok: false, field: 'name', message: ADD_MESSAGES.name_control };
  }
  return { ok: false, field: null, message: error.message };
}

/**
 * Adds a subscriber and their subscriptions. Two requests (PostgREST writes one table at a time):
 * when the second fails the subscriber exists without lists, and the answer says so with its id.
 */
export async function addSubscriber(
  client: SupabaseClient,
  input: NewSubscriber,
): Promise<AddSubscriberResult> {
  const email = checkEmail(input.email);
  if (!email.ok) return { ok: false, field: 'email', message: ADD_MESSAGES.invalid_email };
  const name = input.name.trim();
  const problem = nameProblem(name);
  if (problem) return { ok: false, field: 'name', message: problem };
  const inserted = await client
    .from('subscribers')
    .insert({ email: email.email, name })
    .select('id')
    .single();
  if (inserted.error) return addErrorFor(toQueryError(inserted.error, inserted.status));
  const id = (inserted.data as { id: string }).id;
  if (input.listIds.length > 0) {
    const subscribed = await client
      .from('subscriptions')
      .insert(
        input.listIds.map((list_id) => ({ subscriber_id: id, list_id, status: input.status })),
      );
    if (subscribed.error) {
      const message = toQueryError(subscribed.error, subscribed.status).message;
      return { ok: false, field: 'lists', id, message: `Added, but not to the lists: ${message}` };
    }
  }
  return { ok: true, id };
}
