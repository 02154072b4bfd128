import { describe, expect, it } from 'vitest';
import { draftFrom, type Preferences } from '../../lib/preferences';
import { rebaseDraft, saveConcern, unsubscribeAllConcern } from './preferences-draft';

const before: Preferences = {
  email: 'ada@example.com',
  name: 'Ada',
  lists: [
    { slug: 'newsletter', name: 'The newsletter', description: '', subscribed: true },
    { slug: 'updates', name: 'Product updates', description: '', subscribed: false },
  ],
};

const allOff: Preferences = {
  ...before,
  lists: before.lists.map((list) => ({ ...list, subscribed: false })),
};

describe('rebaseDraft', () => {
  it('keeps a name typed but not saved when "Unsubscribe from all" succeeds', () => {
    const draft = { ...draftFrom(before), name: 'Grace Unsaved' };
    expect(rebaseDraft(draft, before, allOff, unsubscribeAllConcern(before))).toEqual({
      name: 'Grace Unsaved',
      lists: { newsletter: false, updates: false },
    });
  });

  it('lets "Unsubscribe from all" override a switch the visitor had turned on', () => {
    const draft = { name: 'Ada', lists: { newsletter: true, updates: true } };
    expect(rebaseDraft(draft, before, allOff, unsubscribeAllConcern(before)).lists).toEqual({
      newsletter: false,
      updates: false,
    });
  });

  it('takes the server name after an action when the name was not edited', () => {
    const renamed = { ...allOff, name: 'Ada L.' };
    expect(
      rebaseDraft(draftFrom(before), before, renamed, unsubscribeAllConcern(before)).name,
    ).toBe('Ada L.');
  });

  it('takes what a save sent from the server answer (a trimmed name)', () => {
    const draft = { name: '  Grace  ', lists: { newsletter: false, updates: true } };
    const changes = { name: 'Grace', lists: { newsletter: false, updates: true } };
    const after: Preferences = {
      ...before,
      name: 'Grace',
      lists: [
        { ...before.lists[0]!, subscribed: false },
        { ...before.lists[1]!, subscribed: true },
      ],
    };
    expect(rebaseDraft(draft, before, after, saveConcern(changes))).toEqual({
      name: 'Grace',
      lists: { newsletter: false, updates: true },
    });
  });

  it('keeps an edit a save did not send, and drops lists the server no longer has', () => {
    const draft = { name: 'Ada', lists: { newsletter: false, updates: true, gone: true } };
    const after: Preferences = {
      ...before,
      lists: [before.lists[0]!, { ...before.lists[1]!, subscribed: true }],
    };
    expect(rebaseDraft(draft, before, after, saveConcern({ lists: { updates: true } }))).toEqual({
      name: 'Ada',
      lists: { newsletter: false, updates: true },
    });
  });
});

describe('concerns', () => {
  it('"Unsubscribe from all" concerns every list and not the name', () => {
    expect(unsubscribeAllConcern(before)).toEqual({
      name: false,
      lists: ['newsletter', 'updates'],
    });
  });

  it('a save concerns what it sent', () => {
    expect(saveConcern({ name: 'x' })).toEqual({ name: true, lists: [] });
    expect(saveConcern({ lists: { updates: true } })).toEqual({ name: false, lists: ['updates'] });
  });
});
