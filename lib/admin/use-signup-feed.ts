// Live feed of new signups on /admin/: the latest subscribers, read again (debounced) whenever the
// private topic team:audience says subscribers or subscriptions changed; counters refresh too, and
// the feed and totals are read again whenever the channel is joined.
import { useEffect, useState } from 'react';
import { mutate } from 'swr';
import { supabase } from '../supabase';
import { queryKey, useQuery } from '../use-query';
import { debounced, listenTeam } from '../realtime/team-channel';
import { addToFeed, FEED_SIZE, type FeedItem } from './feed';
import type { LiveStatus } from './live-channel';
import { TOTALS_KEY } from './use-dashboard';

export { addToFeed, FEED_SIZE, type FeedItem };

export const RECENT_KEY = queryKey('admin/dashboard/recent-signups', { limit: FEED_SIZE });

/** An import announces a batch every second or so: read again at most this often. */
const REFRESH_DELAY_MS = 400;

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
    // The messages name no subscriber (anyone could otherwise learn who signed up): the feed,
    // the totals and the chart are read again, which is cheap and then exactly right.
    const signups = debounced(() => {
      void mutate((key) => typeof key === 'string' && key.startsWith('admin/dashboard/'));
    }, REFRESH_DELAY_MS);
    const counts = debounced(() => void mutate(TOTALS_KEY), REFRESH_DELAY_MS);
    const stop = listenTeam('team:audience', {
      onMessage: ({ event }) => (event === 'signups' ? signups() : counts()),
      // The feed and the totals only: the chart follows at the next signup, and re-reading it
      // here would replace a chart error the viewer is looking at with a spinner.
      onJoin: () => {
        void mutate(RECENT_KEY);
        void mutate(TOTALS_KEY);
      },
      onStatus: setStatus,
    });
    return () => {
      stop();
      signups.cancel();
      counts.cancel();
    };
  }, []);

  return { ...recent, status };
}
