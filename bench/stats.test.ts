// Unit tests for the percentile and summary helpers.
import { describe, expect, it } from 'vitest';
import { percentile, summarize } from './stats.js';

describe('percentile', () => {
  it('interpolates between the nearest ranks', () => {
    expect(percentile([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentile([1, 2, 3], 50)).toBe(2);
    expect(percentile([10, 20], 25)).toBe(12.5);
    expect(percentile([5], 99)).toBe(5);
  });

  it('is the minimum at 0 and the maximum at 100', () => {
    expect(percentile([1, 7, 9], 0)).toBe(1);
    expect(percentile([1, 7, 9], 100)).toBe(9);
  });

  it('gives p99 of 1..100 as 99.01', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(xs, 99)).toBeCloseTo(99.01, 10);
  });

  it('rejects empty input and out-of-range percentiles', () => {
    expect(() => percentile([], 50)).toThrow('percentile of no samples');
    expect(() => percentile([1], 101)).toThrow('within 0..100');
  });
});

describe('summarize', () => {
  it('sorts unsorted samples and reports n, mean, p50, p99, min, max', () => {
    const stats = summarize([4, 1, 3, 2]);
    expect(stats).toMatchObject({ n: 4, mean: 2.5, p50: 2.5, min: 1, max: 4 });
    expect(stats.p99).toBeCloseTo(3.97, 10);
  });

  it('does not reorder the caller’s array', () => {
    const xs = [3, 1, 2];
    summarize(xs);
    expect(xs).toEqual([3, 1, 2]);
  });

  it('refuses to summarize nothing', () => {
    expect(() => summarize([])).toThrow('no samples');
  });
});
