// Unit tests for the signup form's list rules: main list, pre-checked boxes, confirmation hint.
import { describe, expect, it } from 'vitest';
import {
  initialSelection,
  mainList,
  needsConfirmation,
  sortLists,
  type PublicList,
} from './public-lists';

const at = '2026-11-22T10:00:00Z';
function list(slug: string, extra: Partial<PublicList> = {}): PublicList {
  return {
    slug,
    name: slug,
    description: '',
    optin: 'double',
    waitlist: false,
    created_at: at,
    ...extra,
  };
}

// The seed: three public lists created in one statement (same timestamp).
const seed = [
  list('product-updates', { optin: 'single' }),
  list('early-access', { waitlist: true }),
  list('newsletter'),
];

describe('sortLists and mainList', () => {
  it('orders like the subscribe function: oldest, plain before waitlist, then slug', () => {
    expect(sortLists(seed).map((l) => l.slug)).toEqual([
      'newsletter',
      'product-updates',
      'early-access',
    ]);
    expect(mainList(seed)?.slug).toBe('newsletter');
  });

  it('prefers an older list whatever its kind, and has no main list when there are none', () => {
    const older = list('zeta', { waitlist: true, created_at: '2026-01-01T00:00:00Z' });
    expect(mainList([...seed, older])?.slug).toBe('zeta');
    expect(mainList([])).toBeNull();
  });
});

describe('initialSelection', () => {
  it('checks the main list by default', () => {
    expect(initialSelection(seed)).toEqual(['newsletter']);
  });

  it("checks the referral link's list instead when it is public", () => {
    expect(initialSelection(seed, 'early-access')).toEqual(['early-access']);
    expect(initialSelection(seed, 'beta-testers')).toEqual(['newsletter']);
    expect(initialSelection([], 'early-access')).toEqual([]);
  });
});

describe('needsConfirmation', () => {
  it('is false only when every chosen list is single opt-in', () => {
    expect(needsConfirmation(seed, ['product-updates'])).toBe(false);
    expect(needsConfirmation(seed, ['product-updates', 'newsletter'])).toBe(true);
    expect(needsConfirmation(seed, ['unknown'])).toBe(true);
    expect(needsConfirmation(seed, [])).toBe(false);
  });
});
