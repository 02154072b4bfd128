// The live recipient count of the campaign editor's list picker: read again when the chosen lists
// change, and (debounced) whenever a subscription or a subscriber changes, over Realtime.
import { useEffect, useMemo } from 'react';
import { mutate } from 'swr';
import { supabase } from '../supabase';
import { queryKey, useQuery } from '../use-query';
import { recipientCount } from './campaign-editor';
import { joinLive, uniqueTopic } from './live-channel';

/** Changes in a burst (an import, a bulk action) cost one count, this long after the last. */
const REFRESH_DELAY_MS = 400;

export function recipientCountKey(listIds: string[]): string {
  return queryKey('admin/campaigns/recipients', { lists: [...listIds].sort().join(',') });
}

function isCountKey(key: unknown): boolean {
  return typeof key === 'string' && key.startsWith('admin/campaigns/recipients');
}

export function useRecipientCount(listIds: string[]) {
  const sorted = useMemo(() => [...listIds].sort(), [listIds]);
  const key = recipientCountKey(sorted);
  // While the next count loads, the last one stays on screen (it is marked as updating).
  const query = useQuery(key, () => recipientCount(supabase, sorted), { keepPreviousData: true });

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void mutate(isCountKey), REFRESH_DELAY_MS);
    };
    const channel = joinLive(
      supabase
        .channel(uniqueTopic('recipient-count'))
        .on('postgres_changes', { event: '*', schema: 'public', table: 'subscriptions' }, refresh)
        .on('postgres_changes', { event: '*', schema: 'public', table: 'subscribers' }, refresh),
      { onJoin: refresh },
    );
    return () => {
      clearTimeout(timer);
      void supabase.removeChannel(channel);
    };
  }, []);

  return query;
}
