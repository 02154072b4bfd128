// Live feed of new signups on /admin/: the latest subscribers, then every INSERT on
// public.subscribers from Realtime (RLS decides who hears it) prepended; counters refresh too, and
// the feed and totals are read again whenever the channel is joined.
import { useEffect, useState } from 'react';
import { mutate } from 'swr';
import { supabase } from '../supabase';
import { queryKey, useQuery } from '../use-query';
import { addToFeed, FEED_SIZE, type FeedItem } from './feed';
import { TOTALS_KEY } from './use-dashboard';

export { addToFeed, FEED_SIZE, type FeedItem };

export type FeedStatus = 'connecting' | 'live' | 'offline';

export const RECENT_KEY = queryKey('admin/dashboard/recent-signups', { limit: FEED_SIZE });

export function useSignupFeed() {
  const [status, setStatus] = useState<FeedStatus>('connecting');
  const recent = useQuery(RECENT_KEY, () =>
    supabase
      .from('subscribers')
      .select('id,email,name,created_at')
      .order('created_at', { ascending: false })
      .order('id', { ascending: false })
      .limit(FEED_SIZE),
  );

  useEffect(() => {
    // A name of its own per mount: two dashboards in one tab (strict mode) never share a channel.
    const channel = supabase
      .channel(`admin-signups-${Math.random().toString(36).slice(2)}`)
      .on(
        'postgres_changes',
        { event: 'INSERT', schema: 'public', table: 'subscribers' },
        (payload) => {
          const row = payload.new as FeedItem;
          void mutate<FeedItem[] | null>(
            RECENT_KEY,
            (items) =>
              addToFeed(items ?? [], {
                id: row.id,
                email: row.email,
                name: row.name,
                created_at: row.created_at,
              }),
            { revalidate: false },
          );
          // Totals and the chart are cheap to re-read and then exactly right.
          void mutate(
            (key) =>
              typeof key === 'string' && key.startsWith('admin/dashboard/') && key !== RECENT_KEY,
          );
        },
      )
      .subscribe((state) => {
        if (state === 'SUBSCRIBED') {
          setStatus('live');
          // Signups between the first read and the join (or while offline) sent no event: read
          // the feed and the totals again. (The chart follows at the next signup; re-reading it
          // here would also replace a chart error the viewer is looking at with a spinner.)
          void mutate(RECENT_KEY);
          void mutate(TOTALS_KEY);
        } else if (state === 'CHANNEL_ERROR' || state === 'TIMED_OUT' || state === 'CLOSED') {
          setStatus('offline');
        }
      });
    return () => {
      void supabase.removeChannel(channel);
    };
  }, []);

  return { ...recent, status };
}
