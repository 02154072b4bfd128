// How the admin pages listen to Realtime: a channel of their own, a re-read on every join, and a
// status the page can show ("live" or "offline").
import type { RealtimeChannel } from '@supabase/supabase-js';

/** What a page tells its viewer about its Realtime channel. */
export type LiveStatus = 'connecting' | 'live' | 'offline';

/**
 * A topic of its own per mount. supabase-js hands back the existing channel for a topic it already
 * has, so two views in one tab (or React's strict-mode double mount) would otherwise share one and
 * the first to unmount would remove the other's.
 */
export function uniqueTopic(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2)}`;
}

export interface LiveHandlers {
  /**
   * Runs each time the channel is joined: the first time and after every rejoin. A change made
   * between the page's first read and the join, or while the socket was down, sent no event to
   * this channel, so whatever the page shows is read again here.
   */
  onJoin: () => void;
  /** Hears "live" on each join and "offline" when the channel fails, times out or closes. */
  onStatus?: (status: Exclude<LiveStatus, 'connecting'>) => void;
}

/** Subscribes a channel whose listeners are already attached (`.on(…)`), with the handlers above. */
export function joinLive(channel: RealtimeChannel, { onJoin, onStatus }: LiveHandlers) {
  return channel.subscribe((state) => {
    if (state === 'SUBSCRIBED') {
      onStatus?.('live');
      onJoin();
    } else {
      // CHANNEL_ERROR, TIMED_OUT or CLOSED: supabase-js retries the join by itself.
      onStatus?.('offline');
    }
  });
}
