// Unit tests for the readable lines of a subscriber's history.
import { describe, expect, it } from 'vitest';
import { eventLabel, eventSource, sourceLabel } from './event-labels';

describe('eventLabel', () => {
  const names = { newsletter: 'The newsletter' };

  it('names the list by its name when known, else by slug', () => {
    expect(eventLabel('confirmed', { list: 'newsletter' }, names)).toBe('Confirmed The newsletter');
    expect(eventLabel('unsubscribed', { list: 'beta' }, names)).toBe('Unsubscribed from beta');
    expect(eventLabel('resubscribed', { list: 'newsletter' }, names)).toBe(
      'Resubscribed to The newsletter',
    );
  });

  it('says when a subscription awaits confirmation', () => {
    expect(eventLabel('subscribed', { list: 'newsletter', to: 'pending' }, names)).toBe(
      'Subscribed to The newsletter (awaiting confirmation)',
    );
    expect(eventLabel('subscribed', { list: 'newsletter', to: 'confirmed' }, names)).toBe(
      'Subscribed to The newsletter',
    );
  });

  it('covers list-less events and unknown types', () => {
    expect(eventLabel('subscribed', {})).toBe('Subscribed to a list that no longer exists');
    expect(eventLabel('bounced', {})).toBe('An email bounced');
    expect(eventLabel('clicked', { url: 'https://x.test/' })).toBe('Clicked https://x.test/');
    expect(eventLabel('clicked', [])).toBe('Clicked a link');
    expect(eventLabel('migrated', null)).toBe('Migrated');
  });
});

describe('sources', () => {
  it('reads known sources as phrases and keeps unknown ones', () => {
    expect(eventSource({ source: 'admin' })).toBe('by a team member');
    expect(eventSource({ source: 'webhook' })).toBe('via webhook');
    expect(eventSource({})).toBeNull();
    expect(sourceLabel(null)).toBeNull();
  });
});
