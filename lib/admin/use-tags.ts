// Hooks for tags (issue 24): every tag with its count, one subscriber's tags, and the writes, which
// revalidate the tags and the subscribers pages (a tag filter's matches change with them).
import { useCallback, useState } from 'react';
import { mutate } from 'swr';
import { supabase } from '../supabase';
import { queryKey, toQueryError, useQuery, type QueryError } from '../use-query';
import {
  deleteTag,
  listTags,
  renameTag,
  setSubscriberTag,
  subscriberTags,
  type Tag,
  type TagSummary,
} from './tags';
import { revalidateSubscribers } from './use-subscribers';

export function revalidateTags(): Promise<unknown> {
  return Promise.all([
    mutate((key) => typeof key === 'string' && key.startsWith('admin/tags')),
    revalidateSubscribers(),
  ]);
}

export function useTags() {
  return useQuery<TagSummary[]>(queryKey('admin/tags'), async () => ({
    data: await listTags(supabase),
    error: null,
  }));
}

export function useSubscriberTags(subscriberId: string) {
  return useQuery<Tag[]>(queryKey('admin/tags/of', { id: subscriberId }), async () => ({
    data: await subscriberTags(supabase, subscriberId),
    error: null,
  }));
}

/** Runs one tag write at a time, keeping its error for the control that started it. */
export function useTagWrite() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<QueryError | null>(null);
  const run = useCallback(async (write: () => Promise<unknown>): Promise<boolean> => {
    setPending(true);
    setError(null);
    try {
      await write();
      await revalidateTags();
      return true;
    } catch (e) {
      setError(toQueryError(e));
      return false;
    } finally {
      setPending(false);
    }
  }, []);
  return {
    pending,
    error,
    clearError: useCallback(() => setError(null), []),
    add: (subscriberId: string, name: string) =>
      run(() => setSubscriberTag(supabase, subscriberId, name, 'add')),
    remove: (subscriberId: string, name: string) =>
      run(() => setSubscriberTag(supabase, subscriberId, name, 'remove')),
    rename: (id: string, name: string) => run(() => renameTag(supabase, id, name)),
    destroy: (id: string) => run(() => deleteTag(supabase, id)),
  };
}
