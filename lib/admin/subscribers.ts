// Reads and writes of the subscribers table (SPEC §2, §6), each one PostgREST request where it can
// be; they take the client so the hooks pass the browser's and the integration tests a member's.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Tables } from '../database.types';
import { checkEmail } from '../email';
import { MESSAGES, nameProblem } from '../subscribe';
import { toQueryError, unwrap, type QueryError } from '../use-query';
import {
  orderFor,
  PAGE_SIZE,
  toPage,
  type Cursor,
  type Page,
  type SubscriberFilters,
  type SubscriptionStatus,
} from './subscriber-query';
import { rulesFromFilters, type RuleGroup } from './subscriber-rules';

export type SubscriberRow = Pick<
  Tables<'subscribers'>,
  'id' | 'email' | 'name' | 'status' | 'created_at'
> & { subscriptions: Array<Pick<Tables<'subscriptions'>, 'list_id' | 'status'>> };

const ROW_COLUMNS = 'id,email,name,status,created_at,subscriptions(list_id,status)';

/** The keyset cursor in subscribers_matching's terms. */
function cursorArg(cursor: Cursor | null) {
  return cursor
    ? {
        direction: cursor.direction,
        created_at: cursor.createdAt,
        id: cursor.id,
        email: cursor.email,
      }
    : null;
}

/**
 * One page of subscribers (SPEC §9: 50, keyset), in display order. The rows are chosen by
 * subscribers_matching (the rule compiler, under the caller's RLS); their subscriptions are
 * embedded by PostgREST, and the order is repeated on the 51 rows so the answer keeps it.
 */
export async function listSubscribers(
  client: SupabaseClient,
  filters: SubscriberFilters,
  cursor: Cursor | null,
): Promise<Page<SubscriberRow>> {
  let query = client
    .rpc('subscribers_matching', {
      p_rules: rulesFromFilters(filters),
      p_sort: filters.sort,
      p_cursor: cursorArg(cursor),
      p_limit: PAGE_SIZE + 1,
    })
    .select(ROW_COLUMNS);
  for (const { column, ascending } of orderFor(filters.sort, cursor?.direction)) {
    query = query.order(column, { ascending });
  }
  const rows = unwrap(await query) as unknown as SubscriberRow[] | null;
  return toPage(rows ?? [], cursor);
}

/** How many subscribers match the filters (all pages). */
export async function countSubscribers(
  client: SupabaseClient,
  filters: SubscriberFilters,
): Promise<number> {
  return countMatching(client, rulesFromFilters(filters));
}

/** How many subscribers match a rule set, as the caller may see them. */
export async function countMatching(client: SupabaseClient, rules: RuleGroup): Promise<number> {
  const { data, error, status } = await client.rpc('count_subscribers_matching', {
    p_rules: rules,
  });
  if (error) throw toQueryError(error, status);
  return Number(data ?? 0);
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
