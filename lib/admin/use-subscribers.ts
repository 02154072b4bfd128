// Hooks of the subscribers page: one page of rows, the match count, the lists to filter by, and
// adding one, which revalidates every subscribers key afterwards (bulk: use-subscriber-bulk.ts).
import { useCallback, useState } from 'react';
import { mutate } from 'swr';
import type { Tables } from '../database.types';
import { supabase } from '../supabase';
import { queryKey, toQueryError, useQuery } from '../use-query';
import type { Cursor, SubscriberFilters } from './subscriber-query';
import {
  addSubscriber,
  countSubscribers,
  listSubscribers,
  type AddSubscriberResult,
  type NewSubscriber,
} from './subscribers';

/** Every key under `admin/subscribers` (pages, counts, one subscriber): all change together. */
export function revalidateSubscribers(): Promise<unknown> {
  return mutate(
    (key) =>
      typeof key === 'string' &&
      (key === 'admin/subscribers' || key.startsWith('admin/subscribers')),
  );
}

function filterParams(filters: SubscriberFilters) {
  return {
    q: filters.search.trim() || undefined,
    list: filters.listId ?? undefined,
    subscription: filters.subscription ?? undefined,
    status: filters.status ?? undefined,
    tag: filters.tagId ?? undefined,
    segment: filters.segmentId ?? undefined,
    sort: filters.sort,
  };
}

export function useSubscribers(filters: SubscriberFilters, cursor: Cursor | null) {
  const key = queryKey('admin/subscribers', {
    ...filterParams(filters),
    dir: cursor?.direction,
    at: cursor
      ? filters.sort === 'email-asc'
        ? cursor.email
        : `${cursor.createdAt}|${cursor.id}`
      : undefined,
  });
  return useQuery(
    key,
    async () => ({ data: await listSubscribers(supabase, filters, cursor), error: null }),
    // Keep the old page on screen while the next one loads, so the table does not jump.
    { keepPreviousData: true },
  );
}

export function useSubscriberCount(filters: SubscriberFilters) {
  return useQuery(queryKey('admin/subscribers/count', filterParams(filters)), async () => ({
    data: await countSubscribers(supabase, filters),
    error: null,
  }));
}

export type ListOption = Pick<Tables<'lists'>, 'id' | 'slug' | 'name' | 'visibility'>;

/** Every list (members see private ones too), by name, for filters and pickers. */
export function useListOptions() {
  return useQuery<ListOption[]>(queryKey('admin/subscribers/lists'), () =>
    supabase.from('lists').select('id,slug,name,visibility').order('name'),
  );
}

export function useAddSubscriber() {
  const [pending, setPending] = useState(false);
  const add = useCallback(async (input: NewSubscriber): Promise<AddSubscriberResult> => {
    setPending(true);
    try {
      const result = await addSubscriber(supabase, input);
      if (result.ok || result.id) await revalidateSubscribers();
      return result;
    } catch (error) {
      return { ok: false, field: null, message: toQueryError(error).message };
    } finally {
      setPending(false);
    }
  }, []);
  return { add, pending };
}
