// Hooks for tags (issue 24): every tag with its count, one subscriber's tags, what uses a tag, and
// the writes, which revalidate the tags and the subscribers pages (a tag filter's matches and the
// subscribers' histories change with them).
import { useCallback, useState } from 'react';
import { mutate } from 'swr';
import { supabase } from '../supabase';
import { queryKey, toQueryError, useQuery, type QueryError } from '../use-query';
import type { TagUsage } from './tag-usage';
import {
  createTag,
  deleteTag,
  listTags,
  renameTag,
  setSubscriberTag,
  subscriberTags,
  tagUsage,
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

/** What uses one tag (null: none asked yet); read afresh each time it is asked for. */
export function useTagUsage(id: string | null) {
  return useQuery<TagUsage>(
    id === null ? null : queryKey('admin/tags/usage', { id }),
    async () => ({ data: await tagUsage(supabase, id ?? ''), error: null }),
    { revalidateOnMount: true, dedupingInterval: 0 },
  );
}

/** Runs one tag write at a time, keeping its error for the control that started it. */
export function useTagWrite() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<QueryError | null>(null);
  // `{value}` on success (a write may answer nothing), null on failure (the error is kept).
  const run = useCallback(async <T>(write: () => Promise<T>): Promise<{ value: T } | null> => {
    setPending(true);
    setError(null);
    try {
      const value = await write();
      await revalidateTags();
      return { value };
    } catch (e) {
      setError(toQueryError(e));
      return null;
    } finally {
      setPending(false);
    }
  }, []);
  const ok = (result: { value: unknown } | null) => result !== null;
  return {
    pending,
    error,
    clearError: useCallback(() => setError(null), []),
    add: async (subscriberId: string, name: string) =>
      ok(await run(() => setSubscriberTag(supabase, subscriberId, name, 'add'))),
    remove: async (subscriberId: string, name: string) =>
      ok(await run(() => setSubscriberTag(supabase, subscriberId, name, 'remove'))),
    /** The new tag, or null when refused. */
    create: async (name: string) => (await run(() => createTag(supabase, name)))?.value ?? null,
    rename: async (id: string, name: string) => ok(await run(() => renameTag(supabase, id, name))),
    /** How many subscribers lost the tag, or null when refused. */
    destroy: async (id: string) => (await run(() => deleteTag(supabase, id)))?.value ?? null,
  };
}
