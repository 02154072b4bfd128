// Unit tests for reading a waitlist place and how the pages word it.
import { describe, expect, it } from 'vitest';
import { parseConfirmAnswer, joinNames } from './confirm';
import { parseWaitlistStanding, positionText, referralsText, waitlistPagePath } from './waitlist';

const standing = {
  list: { slug: 'early-access', name: 'Early access' },
  status: 'confirmed',
  position: 3,
  total: 1200,
  referrals: 1,
  code: 'abc123',
  url: 'https://example.com/?ref=abc123&list=early-access',
};

describe('parseWaitlistStanding', () => {
  it('accepts the waitlist answer and the confirm answer (which has no status)', () => {
    expect(parseWaitlistStanding(standing)).toEqual(standing);
    const { status: _status, ...fromConfirm } = standing;
    expect(parseWaitlistStanding(fromConfirm)).toEqual(standing);
  });

  it('accepts a pending place without a position', () => {
    expect(parseWaitlistStanding({ ...standing, status: 'pending', position: null })).toMatchObject(
      { status: 'pending', position: null },
    );
  });

  it('refuses anything else', () => {
    for (const bad of [
      null,
      [],
      { ...standing, position: 0 },
      { ...standing, position: 1.5 },
      { ...standing, total: -1 },
      { ...standing, referrals: '1' },
      { ...standing, status: 'waiting' },
      { ...standing, list: { slug: 'x' } },
      { ...standing, url: undefined },
    ]) {
      expect(parseWaitlistStanding(bad)).toBeNull();
    }
  });
});

describe('wording', () => {
  it('says the place, the total and the referrals', () => {
    expect(positionText({ position: 3, total: 1200 })).toBe('#3 of 1,200');
    expect(positionText({ position: 5, total: 4 })).toBe('#5');
    expect(positionText({ position: null, total: 4 })).toBe('Not in line yet');
    expect(referralsText(0)).toBe('0 referrals');
    expect(referralsText(1)).toBe('1 referral');
    expect(referralsText(2500)).toBe('2,500 referrals');
  });

  it('links to the waitlist page of a code', () => {
    expect(waitlistPagePath('a b')).toBe('/waitlist/?code=a+b');
    expect(waitlistPagePath('abc', 'early-access')).toBe('/waitlist/?code=abc&list=early-access');
  });
});

describe('parseConfirmAnswer', () => {
  it('reads the confirmed lists with or without a waitlist place', () => {
    const lists = [{ slug: 'newsletter', name: 'The newsletter' }];
    expect(parseConfirmAnswer({ lists })).toEqual({
      lists,
      waitlist: null,
      updated: false,
      already: false,
    });
    expect(parseConfirmAnswer({ lists, waitlist: standing })).toEqual({
      lists,
      waitlist: standing,
      updated: false,
      already: false,
    });
    expect(parseConfirmAnswer({ lists, updated: true })?.updated).toBe(true);
    expect(parseConfirmAnswer({ lists, already: true })?.already).toBe(true);
    expect(parseConfirmAnswer({ lists, waitlist: { position: 1 } })).toBeNull();
    expect(parseConfirmAnswer({ lists: [{ slug: 1 }] })).toBeNull();
    expect(parseConfirmAnswer({})).toBeNull();
  });

  it('joins list names as a sentence', () => {
    expect(joinNames([])).toBe('');
    expect(joinNames(['A'])).toBe('A');
    expect(joinNames(['A', 'B'])).toBe('A and B');
    expect(joinNames(['A', 'B', 'C'])).toBe('A, B and C');
  });
});
