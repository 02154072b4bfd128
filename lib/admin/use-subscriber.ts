// Hooks of one subscriber's page: the record, its history, and the writes on it (edit, per-list
// status, blocklist, delete, JSON export), each revalidating the subscribers keys afterwards.
import { useCallback, useState } from 'react';
import { supabase } from '../supabase';
import { queryKey, toQueryError, useQuery, type QueryError } from '../use-query';
import {
  buildExport,
  deleteSubscriber,
  getSubscriber,
  getSubscriberEvents,
  setSubscriberStatus,
  setSubscriptionStatus,
  type SubscriberDetail,
  type SubscriberEvent,
  type SubscriberExport,
} from './subscriber';
import type { SubscriptionStatus } from './subscriber-query';
import { updateSubscriber, type EditResult, type SubscriberEdit } from './subscriber-edit';
import { revalidateSubscribers } from './use-subscribers';

/** `id` null (query string not read yet) skips the fetch. */
export function useSubscriber(id: string | null) {
  return useQuery<SubscriberDetail>(
    id === null ? null : queryKey('admin/subscribers/one', { id }),
    async () => ({ data: await getSubscriber(supabase, id ?? ''), error: null }),
  );
}

export function useSubscriberEvents(id: string | null) {
  return useQuery<SubscriberEvent[]>(
    id === null ? null : queryKey('admin/subscribers/events', { id }),
    async () => ({ data: await getSubscriberEvents(supabase, id ?? ''), error: null }),
  );
}

/** Runs one write at a time and remembers its error, so the control that started it can show it. */
function useWrite<A extends unknown[]>(write: (...args: A) => Promise<void>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<QueryError | null>(null);
  const run = useCallback(
    async (...args: A): Promise<boolean> => {
      setPending(true);
      setError(null);
      try {
        await write(...args);
        return true;
      } catch (err) {
        setError(toQueryError(err));
        return false;
      } finally {
        setPending(false);
        await revalidateSubscribers();
      }
    },
    [write],
  );
  return { run, pending, error };
}

const writeSubscription = (
  subscriberId: string,
  listId: string,
  status: SubscriptionStatus,
  exists: boolean,
) => setSubscriptionStatus(supabase, subscriberId, listId, status, exists);

export function useSetSubscriptionStatus() {
  return useWrite(writeSubscription);
}

const writeStatus = (id: string, status: 'enabled' | 'blocklisted') =>
  setSubscriberStatus(supabase, id, status);

export function useSetSubscriberStatus() {
  return useWrite(writeStatus);
}

const writeDelete = (id: string) => deleteSubscriber(supabase, id);

export function useDeleteSubscriber() {
  return useWrite(writeDelete);
}

/** Saves an edit of name, email, attributes and notes; the history and the table revalidate. */
export function useUpdateSubscriber() {
  const [pending, setPending] = useState(false);
  const run = useCallback(async (id: string, edit: SubscriberEdit): Promise<EditResult> => {
    setPending(true);
    try {
      return await updateSubscriber(supabase, id, edit);
    } catch (error) {
      return { ok: false, field: null, message: toQueryError(error).message };
    } finally {
      setPending(false);
      await revalidateSubscribers();
    }
  }, []);
  return { run, pending };
}

/** Reads the whole history (not just the page's first 200 events) and builds the export. */
export async function exportSubscriber(detail: SubscriberDetail): Promise<SubscriberExport> {
  const events = await getSubscriberEvents(supabase, detail.id, null);
  return buildExport(detail, events);
}
