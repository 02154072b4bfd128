// The live recipient count of the campaign editor's list picker: read again when the chosen lists
// change, and (debounced) whenever a subscription or a subscriber changes (the private topic
// team:audience, lib/realtime/team-channel.ts). The lists-plus-segments count of the same editor
// (campaign-audience-use.ts) is read again on the same signal.
import { useEffect, useMemo } from 'react';
import { mutate } from 'swr';
import { supabase } from '../supabase';
import { queryKey, useQuery } from '../use-query';
import { recipientCount } from './campaign-editor';
import { debounced, listenTeam } from '../realtime/team-channel';

/** Changes in a burst (an import, a bulk action) cost one count, this long after the last. */
const REFRESH_DELAY_MS = 400;

export function recipientCountKey(listIds: string[]): string {
  return queryKey('admin/campaigns/recipients', { lists: [...listIds].sort().join(',') });
}

function isCountKey(key: unknown): boolean {
  return (
    typeof key === 'string' &&
    (key.startsWith('admin/campaigns/recipients') || key.startsWith('admin/campaigns/audience'))
  );
}

export function useRecipientCount(listIds: string[]) {
  const sorted = useMemo(() => [...listIds].sort(), [listIds]);
  const key = recipientCountKey(sorted);
  // While the next count loads, the last one stays on screen (it is marked as updating).
  const query = useQuery(key, () => recipientCount(supabase, sorted), { keepPreviousData: true });

  useEffect(() => {
    const refresh = debounced(() => void mutate(isCountKey), REFRESH_DELAY_MS);
    const stop = listenTeam('team:audience', { onMessage: refresh, onJoin: refresh });
    return () => {
      stop();
      refresh.cancel();
    };
  }, []);

  return query;
}
