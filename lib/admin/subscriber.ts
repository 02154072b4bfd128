// One subscriber in the admin (SPEC §2 `/admin/subscribers/view/?id=`): reads, per-list status
// changes, the JSON export and deletion; the client is passed in (browser hook or test member).
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Json, Tables } from '../database.types';
import { unwrap } from '../use-query';
import type { SubscriptionStatus } from './subscriber-query';
import { isUuid } from '../uuid';

export type SubscriptionDetail = Tables<'subscriptions'> & {
  lists: Pick<Tables<'lists'>, 'id' | 'slug' | 'name'> | null;
};
export type SubscriberDetail = Tables<'subscribers'> & { subscriptions: SubscriptionDetail[] };
export type SubscriberEvent = Tables<'events'>;

/** True for a well-formed id; anything else is "not found" without asking the database. */
export function isSubscriberId(id: unknown): id is string {
  return isUuid(id);
}

/** The subscriber with their subscriptions (and list names), or null when there is none. */
export async function getSubscriber(
  client: SupabaseClient,
  id: string,
): Promise<SubscriberDetail | null> {
  if (!isSubscriberId(id)) return null;
  const detail = unwrap(
    await client
      .from('subscribers')
      .select('*,subscriptions(*,lists(id,slug,name))')
      .eq('id', id)
      .maybeSingle(),
  ) as SubscriberDetail | null;
  detail?.subscriptions.sort((a, b) => (a.lists?.name ?? '').localeCompare(b.lists?.name ?? ''));
  return detail;
}

/** How many events the page shows (newest first); older ones are in the JSON export. */
export const EVENT_LIMIT = 200;

/** The subscriber's history, newest first; `limit` null reads all of it (for the export). */
export async function getSubscriberEvents(
  client: SupabaseClient,
  id: string,
  limit: number | null = EVENT_LIMIT,
): Promise<SubscriberEvent[]> {
  if (!isSubscriberId(id)) return [];
  let query = client
    .from('events')
    .select('*')
    .eq('subscriber_id', id)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false });
  if (limit !== null) query = query.limit(limit);
  return (unwrap(await query) as SubscriberEvent[] | null) ?? [];
}

/**
 * Puts the subscriber on `listId` with `status`: an update when a subscription exists, else an
 * insert (the database refuses what SPEC §4 forbids, e.g. confirmed → pending or a blocklisted address).
 */
export async function setSubscriptionStatus(
  client: SupabaseClient,
  subscriberId: string,
  listId: string,
  status: SubscriptionStatus,
  exists: boolean,
): Promise<void> {
  const result = exists
    ? await client
        .from('subscriptions')
        .update({ status })
        .eq('subscriber_id', subscriberId)
        .eq('list_id', listId)
        .select('status')
        .single()
    : await client
        .from('subscriptions')
        .insert({ subscriber_id: subscriberId, list_id: listId, status })
        .select('status')
        .single();
  unwrap(result);
}

/** Sets enabled/blocklisted; blocklisting also unsubscribes from every list (database trigger). */
export async function setSubscriberStatus(
  client: SupabaseClient,
  id: string,
  status: 'enabled' | 'blocklisted',
): Promise<void> {
  unwrap(await client.from('subscribers').update({ status }).eq('id', id).select('id').single());
}

/** Deletes the subscriber and everything held on them (owner only; the database leaves an anonymous trace). */
export async function deleteSubscriber(client: SupabaseClient, id: string): Promise<void> {
  // `.single()` turns "no row deleted" (RLS or already gone) into an error instead of a silent success.
  unwrap(await client.from('subscribers').delete().eq('id', id).select('id').single());
}

export interface SubscriberExport {
  exported_at: string;
  subscriber: Omit<Tables<'subscribers'>, never>;
  subscriptions: Array<{
    list: string | null;
    list_name: string | null;
    status: string;
    created_at: string;
    confirmed_at: string | null;
    unsubscribed_at: string | null;
  }>;
  events: Array<{ type: string; data: Json; created_at: string }>;
}

/** Everything the member can read about the subscriber, as the JSON file the page downloads. */
export function buildExport(
  detail: SubscriberDetail,
  events: SubscriberEvent[],
  now: Date = new Date(),
): SubscriberExport {
  const { subscriptions, ...subscriber } = detail;
  return {
    exported_at: now.toISOString(),
    subscriber,
    subscriptions: subscriptions.map((s) => ({
      list: s.lists?.slug ?? null,
      list_name: s.lists?.name ?? null,
      status: s.status,
      created_at: s.created_at,
      confirmed_at: s.confirmed_at,
      unsubscribed_at: s.unsubscribed_at,
    })),
    events: events.map((e) => ({ type: e.type, data: e.data, created_at: e.created_at })),
  };
}

/** A file name for the export: `subscriber-ada-example.com-2026-11-22.json`. */
export function exportFileName(email: string, now: Date = new Date()): string {
  const safe = email.replace(/[^a-z0-9.@_-]/gi, '-').replace('@', '-');
  return `subscriber-${safe}-${now.toISOString().slice(0, 10)}.json`;
}
