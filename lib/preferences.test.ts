// Unit tests for the preferences page's rules: answers, what a save sends, the export file.
import { describe, expect, it } from 'vitest';
import {
  draftFrom,
  exportFileName,
  exportFileText,
  nameProblem,
  parseDeleted,
  parseExport,
  parsePreferences,
  preferencesChanges,
  type Preferences,
} from './preferences';
import { activeLists, parseUnsubscribeView, preferencesPath } from './unsubscribe';

const saved: Preferences = {
  email: 'ada@example.com',
  name: 'Ada',
  lists: [
    { slug: 'newsletter', name: 'The newsletter', description: 'Fortnightly.', subscribed: true },
    { slug: 'product-updates', name: 'Product updates', description: '', subscribed: false },
  ],
};

describe('parsePreferences', () => {
  it('reads the answer, tolerating a missing name or description', () => {
    expect(parsePreferences(saved)).toEqual(saved);
    expect(
      parsePreferences({
        email: 'a@b.co',
        name: null,
        lists: [{ slug: 'x', name: 'X', subscribed: false }],
      }),
    ).toEqual({
      email: 'a@b.co',
      name: '',
      lists: [{ slug: 'x', name: 'X', description: '', subscribed: false }],
    });
  });

  it('refuses other shapes', () => {
    expect(parsePreferences({ email: 'a@b.co', lists: [{ slug: 'x', name: 'X' }] })).toBeNull();
    expect(parsePreferences({ lists: [] })).toBeNull();
    expect(parsePreferences({ email: 'a@b.co', lists: {} })).toBeNull();
  });
});

describe('preferencesChanges', () => {
  it('is null when nothing changed (whitespace in the name does not count)', () => {
    expect(preferencesChanges(saved, draftFrom(saved))).toBeNull();
    expect(preferencesChanges(saved, { ...draftFrom(saved), name: ' Ada ' })).toBeNull();
  });

  it('sends the trimmed name and only the switched lists', () => {
    const draft = draftFrom(saved);
    draft.name = ' Ada Lovelace ';
    draft.lists['product-updates'] = true;
    expect(preferencesChanges(saved, draft)).toEqual({
      name: 'Ada Lovelace',
      lists: { 'product-updates': true },
    });
    const off = draftFrom(saved);
    off.lists.newsletter = false;
    expect(preferencesChanges(saved, off)).toEqual({ lists: { newsletter: false } });
  });

  it('ignores switches for lists the answer does not have', () => {
    const draft = draftFrom(saved);
    draft.lists['beta-testers'] = true;
    expect(preferencesChanges(saved, draft)).toBeNull();
  });
});

describe('name, export and delete', () => {
  it('checks the name as the function does', () => {
    expect(nameProblem('Ada')).toBeNull();
    expect(nameProblem('x'.repeat(101))).toMatch(/at most 100/);
    expect(nameProblem('Ada\nLovelace')).toMatch(/control characters/);
    // Characters, as SQL's char_length counts: an emoji is one, not two UTF-16 units.
    expect(nameProblem('\u{1F600}'.repeat(100))).toBeNull();
    expect(nameProblem('\u{1F600}'.repeat(101))).toMatch(/at most 100/);
  });

  it('names and formats the download', () => {
    expect(exportFileName(new Date('2026-11-22T23:59:00Z'))).toBe('my-data-2026-11-22.json');
    expect(exportFileText({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}\n');
  });

  it('reads the export and delete answers', () => {
    expect(parseExport({ data: { subscriber: {} } })).toEqual({ data: { subscriber: {} } });
    expect(parseExport({ data: [] })).toBeNull();
    expect(parseDeleted({ deleted: true })).toEqual({ deleted: true });
    expect(parseDeleted({ deleted: false })).toBeNull();
  });
});

describe('preferencesPath', () => {
  it('links to preferences only with a token of the right shape', () => {
    expect(preferencesPath('abc_-1.def-_2')).toBe('/preferences/?token=abc_-1.def-_2');
    expect(preferencesPath(null)).toBeNull();
    expect(preferencesPath('')).toBeNull();
    expect(preferencesPath('a.b&x=1')).toBeNull();
    expect(preferencesPath('javascript:alert(1)')).toBeNull();
  });
});

describe('parseUnsubscribeView', () => {
  it('reads the masked address and the lists with their status', () => {
    const view = {
      email: 'a***@example.com',
      lists: [
        { slug: 'newsletter', name: 'The newsletter', status: 'unsubscribed' },
        { slug: 'product-updates', name: 'Product updates', status: 'confirmed' },
      ],
    };
    const parsed = parseUnsubscribeView(view);
    expect(parsed).toEqual(view);
    // A preferences_url in an answer is not followed: only the footer link's own token is.
    expect(
      parseUnsubscribeView({
        ...view,
        preferences_url: 'https://example.com/preferences/?token=a.b',
      }),
    ).toEqual(view);
    expect(activeLists(parsed!).map((l) => l.slug)).toEqual(['product-updates']);
    expect(
      parseUnsubscribeView({ ...view, lists: [{ slug: 'x', name: 'X', status: 'gone' }] }),
    ).toBeNull();
    expect(parseUnsubscribeView({ lists: [] })).toBeNull();
  });
});
