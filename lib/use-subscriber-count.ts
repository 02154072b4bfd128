// The home page's subscriber count: public_subscriber_count() answers null unless the owner shows it.
// Visitors cannot listen to subscriber rows (RLS), so "live" is a gentle poll plus a refresh after
// the visitor's own signup.
import { supabase } from './supabase';
import { queryKey, useQuery } from './use-query';

export const SUBSCRIBER_COUNT_KEY = queryKey('public-subscriber-count');
const REFRESH_MS = 30_000;

export function useSubscriberCount(enabled: boolean): number | null {
  const { data } = useQuery(
    enabled ? SUBSCRIBER_COUNT_KEY : null,
    () => supabase.rpc('public_subscriber_count'),
    { refreshInterval: REFRESH_MS },
  );
  // A failed count simply stays hidden: it is decoration, never a reason to show an error.
  return typeof data === 'number' ? data : data == null ? null : Number(data);
}
