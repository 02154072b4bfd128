// Unit tests for metadata merging and ban_duration parsing.
import { describe, expect, it } from 'vitest';
import { mergeMetadata, parseBanDuration } from './metadata.js';

describe('mergeMetadata', () => {
  it('merges top-level keys and deletes nulls', () => {
    expect(mergeMetadata({ a: 1, b: { c: 2 }, d: 4 }, { b: { e: 3 }, d: null, f: 'x' })).toEqual({
      a: 1,
      b: { e: 3 },
      f: 'x',
    });
  });
});

describe('parseBanDuration', () => {
  it('parses Go durations', () => {
    expect(parseBanDuration('24h')).toBe(24 * 36e5);
    expect(parseBanDuration('1h30m')).toBe(90 * 6e4);
    expect(parseBanDuration('none')).toBeNull();
  });
  it('rejects garbage', () => {
    expect(parseBanDuration('tomorrow')).toBeNaN();
    expect(parseBanDuration('')).toBeNaN();
  });
});
