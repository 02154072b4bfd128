// Unit tests for the readable lines of a subscriber's history.
import { describe, expect, it } from 'vitest';
import { eventLabel, eventSource, sourceLabel, tagNamesFor } from './event-labels';

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

describe('tag events', () => {
  it('names the tag as it is now, as recorded, or as since deleted', () => {
    const data = { tag_id: 't1', tag: 'vip', source: 'admin' };
    expect(eventLabel('tagged', data)).toBe('Tagged “vip”');
    expect(eventLabel('tagged', data, {}, { t1: { name: 'VIP customers', deleted: false } })).toBe(
      'Tagged “VIP customers”',
    );
    expect(eventLabel('untagged', data)).toBe('Tag “vip” removed');
    expect(eventLabel('tagged', data, {}, { t1: { name: 'surf', deleted: true } })).toBe(
      'Tagged “surf” (since deleted)',
    );
    expect(eventLabel('tagged', {})).toBe('Tagged “a tag”');
  });

  it("reads a tag's name as it is now, else as the newest event recorded it", () => {
    const events = [
      { data: { tag_id: 'gone', tag: 'surf' } },
      { data: { tag_id: 'gone', tag: 'wave' } },
      { data: { tag_id: 'kept', tag: 'old name' } },
      { data: { list: 'newsletter' } },
    ];
    expect(tagNamesFor(events, [{ id: 'kept', name: 'New name' }])).toEqual({
      gone: { name: 'surf', deleted: true },
      kept: { name: 'New name', deleted: false },
    });
    // While the tags load, nothing is called deleted.
    expect(tagNamesFor(events, undefined).gone).toEqual({ name: 'surf', deleted: false });
  });

  it('credits an automation by its name', () => {
    expect(
      eventSource({ source: 'automation', automation: { id: 'a1', name: 'Welcome series' } }),
    ).toBe('by the automation “Welcome series”');
    expect(eventSource({ source: 'automation' })).toBe('by an automation');
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
