// The dashboard feed's ordering: newest signup first, each subscriber once, a bounded length.
import type { Tables } from '../database.types';

export type FeedItem = Pick<Tables<'subscribers'>, 'id' | 'email' | 'name' | 'created_at'>;

export const FEED_SIZE = 12;

/** Newest first, each subscriber once, at most FEED_SIZE. */
export function addToFeed(items: FeedItem[], item: FeedItem): FeedItem[] {
  const rest = items.filter((i) => i.id !== item.id);
  return [item, ...rest]
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0))
    .slice(0, FEED_SIZE);
}
