// Ordering of the dashboard's live feed.
import { describe, expect, it } from 'vitest';
import { addToFeed, FEED_SIZE, type FeedItem } from './feed';

const item = (id: string, minute: number): FeedItem => ({
  id,
  email: `${id}@example.com`,
  name: '',
  created_at: `2026-11-22T10:${String(minute).padStart(2, '0')}:00+00:00`,
});

describe('addToFeed', () => {
  it('puts the newest first and keeps each subscriber once', () => {
    const feed = addToFeed([item('b', 2), item('a', 1)], item('c', 3));
    expect(feed.map((i) => i.id)).toEqual(['c', 'b', 'a']);
    expect(addToFeed(feed, item('c', 3)).map((i) => i.id)).toEqual(['c', 'b', 'a']);
  });
  it('places a late event by its time and caps the length', () => {
    expect(addToFeed([item('c', 3), item('a', 1)], item('b', 2)).map((i) => i.id)).toEqual([
      'c',
      'b',
      'a',
    ]);
    const many = Array.from({ length: FEED_SIZE }, (_, i) => item(`s${i}`, 50 - i));
    const feed = addToFeed(many, item('new', 59));
    expect(feed).toHaveLength(FEED_SIZE);
    expect(feed[0]!.id).toBe('new');
  });
});
