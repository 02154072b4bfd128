// Live feed of new signups on /admin/: the latest subscribers, then every INSERT on
// public.subscribers from Realtime (RLS decides who hears it) prepended; counters refresh too, and
// the feed and totals are read again whenever the channel is joined.
import { useEffect, useState } from 'react';
import { mutate } from 'swr';
import { supabase } from '../supabase';
import { queryKey, useQuery } from '../use-query';
import { addToFeed, FEED_SIZE, type FeedItem } from './feed';
import { joinLive, uniqueTopic, type LiveStatus } from './live-channel';
import { TOTALS_KEY } from './use-dashboard';

export { addToFeed, FEED_SIZE, type FeedItem };

export const RECENT_KEY = queryKey('admin/dashboard/recent-signups', { limit: FEED_SIZE });

export function useSignupFeed() {
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const recent = useQuery(RECENT_KEY, () =>
    supabase
      .from('subscribers')
      .select('id,email,name,created_at')
      .order('created_at', { ascending: false })
      .order('id', { ascending: false })
      .limit(FEED_SIZE),
  );

  useEffect(() => {
    const channel = joinLive(
      supabase
        .channel(uniqueTopic('admin-signups'))
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
        ),
      {
        // The feed and the totals only: the chart follows at the next signup, and re-reading it
        // here would replace a chart error the viewer is looking at with a spinner.
        onJoin: () => {
          void mutate(RECENT_KEY);
          void mutate(TOTALS_KEY);
        },
        onStatus: setStatus,
      },
    );
    return () => {
      void supabase.removeChannel(channel);
    };
  }, []);

  return { ...recent, status };
}
