// The home page's subscriber count: public_subscriber_count() answers null unless the owner shows it.
// Visitors cannot read subscribers; the public topic `subscriber-count` (event 'changed', no data)
// says when a confirmed subscription to a public list came or went, and the count is read again.
// A gentle poll covers what the topic does not announce (a subscriber blocklisted or deleted).
import { useEffect } from 'react';
import { onBroadcast, publicRest } from './supabase-public';
import { mutatePublic, usePublicQuery } from './use-public-query';
import { queryKey } from './query';

export const SUBSCRIBER_COUNT_KEY = queryKey('public-subscriber-count');
const REFRESH_MS = 30_000;
/** Confirmations come in bursts (an import): read the count at most this often. */
const LIVE_DELAY_MS = 1000;

export function useSubscriberCount(enabled: boolean): number | null {
  const { data } = usePublicQuery(
    enabled ? SUBSCRIBER_COUNT_KEY : null,
    () => publicRest.rpc('public_subscriber_count'),
    { refreshInterval: REFRESH_MS },
  );
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onBroadcast('subscriber-count', 'changed', () => {
      clearTimeout(timer);
      timer = setTimeout(() => void mutatePublic(SUBSCRIBER_COUNT_KEY), LIVE_DELAY_MS);
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, [enabled]);
  // A failed count simply stays hidden: it is decoration, never a reason to show an error.
  return typeof data === 'number' ? data : data == null ? null : Number(data);
}
