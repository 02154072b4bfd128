// Hooks for segments (issue 24): the list, one segment, the debounced live preview of rules being
// edited, and the writes, which revalidate the segments and the subscribers pages.
import { useCallback, useEffect, useState } from 'react';
import { mutate } from 'swr';
import { supabase } from '../supabase';
import { queryKey, toQueryError, useQuery, type QueryError } from '../use-query';
import {
  deleteSegment,
  getSegment,
  listSegments,
  previewRules,
  saveSegment,
  type Preview,
  type Segment,
} from './segments';
import type { RuleGroup } from './subscriber-rules';
import { revalidateSubscribers } from './use-subscribers';

export function revalidateSegments(): Promise<unknown> {
  return Promise.all([
    mutate((key) => typeof key === 'string' && key.startsWith('admin/segments')),
    revalidateSubscribers(),
  ]);
}

export function useSegments() {
  return useQuery<Segment[]>(queryKey('admin/segments'), async () => ({
    data: await listSegments(supabase),
    error: null,
  }));
}

export function useSegment(id: string | null) {
  return useQuery<Segment | null>(id ? queryKey('admin/segments/one', { id }) : null, async () => ({
    data: await getSegment(supabase, id!),
    error: null,
  }));
}

/** How long editing must pause before the count runs again. */
const PREVIEW_DELAY_MS = 400;

/** The count and newest matches of `rules`, re-read a moment after they stop changing. */
export function useRulesPreview(rules: RuleGroup | null) {
  const text = rules ? JSON.stringify(rules) : null;
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return useQuery<Preview>(
    settled ? queryKey('admin/segments/preview', { rules: settled }) : null,
    async () => ({
      data: await previewRules(supabase, JSON.parse(settled!) as RuleGroup),
      error: null,
    }),
    { keepPreviousData: true },
  );
}

export function useSegmentWrite() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<QueryError | null>(null);
  const run = useCallback(async <T>(write: () => Promise<T>): Promise<T | null> => {
    setPending(true);
    setError(null);
    try {
      const result = await write();
      await revalidateSegments();
      return result;
    } catch (e) {
      setError(toQueryError(e));
      return null;
    } finally {
      setPending(false);
    }
  }, []);
  return {
    pending,
    error,
    save: (segment: { id?: string; name: string; rules: RuleGroup }) =>
      run(() => saveSegment(supabase, segment)),
    destroy: (id: string) => run(() => deleteSegment(supabase, id).then(() => id)),
  };
}
