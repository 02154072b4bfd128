// Unit tests for timestamp formatting and email checks in users.ts.
import { describe, expect, it } from 'vitest';
import { isoTime, isValidEmail, normalizeEmail } from './users.js';

describe('isoTime', () => {
  it('keeps microseconds and drops trailing zeros like Go', () => {
    expect(isoTime('2026-01-02 03:04:05.678901+00')).toBe('2026-01-02T03:04:05.678901Z');
    expect(isoTime('2026-01-02 03:04:05.670000+00')).toBe('2026-01-02T03:04:05.67Z');
    expect(isoTime('2026-01-02 03:04:05+00')).toBe('2026-01-02T03:04:05Z');
  });
  it('converts other offsets to UTC', () => {
    expect(isoTime('2026-01-02 05:04:05.5+02')).toBe('2026-01-02T03:04:05.500Z');
  });
  it('passes null through as absent', () => {
    expect(isoTime(null)).toBeUndefined();
  });
});

describe('emails', () => {
  it('lower-cases and validates', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(isValidEmail('ada@example.com')).toBe(true);
    expect(isValidEmail('not-an-email')).toBe(false);
    expect(isValidEmail('a@b')).toBe(true);
  });
});
