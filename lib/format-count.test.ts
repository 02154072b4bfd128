import { describe, expect, it } from 'vitest';
import { formatCount } from './format-count';

describe('formatCount', () => {
  const intl = new Intl.NumberFormat('en');

  it('groups whole numbers exactly as Intl.NumberFormat("en") does', () => {
    const values = [
      0,
      1,
      9,
      10,
      99,
      100,
      999,
      1000,
      1001,
      9999,
      12345,
      100000,
      999999,
      1000000,
      1234567,
      -1,
      -999,
      -1000,
      -1234567,
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
    ];
    for (const value of values) expect(formatCount(value), String(value)).toBe(intl.format(value));
  });

  it('falls back to Intl for what is not a safe whole number', () => {
    for (const value of [1.5, 1234.567, -0.25, 1e21, Number.NaN, Infinity]) {
      expect(formatCount(value), String(value)).toBe(intl.format(value));
    }
  });
});
