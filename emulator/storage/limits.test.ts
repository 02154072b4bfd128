// Unit tests for the storage validation and parsing rules.
import { describe, expect, it } from 'vitest';
import { StorageError } from './errors.js';
import {
  contentDisposition,
  isoTime,
  mustBeValidKey,
  parseBucketSizeLimit,
  parseFileSizeToBytes,
  parseRange,
  validateMimeType,
} from './limits.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof StorageError ? err.code : 'other';
  }
  return undefined;
}

describe('storage limits', () => {
  it('parses size strings with decimal units like upstream', () => {
    expect(parseFileSizeToBytes('5MB')).toBe(5_000_000);
    expect(parseFileSizeToBytes('1.5kb')).toBe(1500);
    expect(parseFileSizeToBytes('20GB')).toBe(20e9);
    expect(codeOf(() => parseFileSizeToBytes('50MiB'))).toBe('InvalidRequest');
    expect(parseBucketSizeLimit(1024, 5e6)).toBe(1024);
    expect(parseBucketSizeLimit(null, 5e6)).toBeNull();
    expect(codeOf(() => parseBucketSizeLimit('1GB', 5e6))).toBe('EntityTooLarge');
  });

  it('matches mime types exactly or by wildcard', () => {
    expect(() => validateMimeType('image/png', ['image/*'])).not.toThrow();
    expect(() => validateMimeType('image/png', ['image/png'])).not.toThrow();
    expect(codeOf(() => validateMimeType('text/plain;charset=UTF-8', ['text/plain']))).toBe(
      'InvalidMimeType',
    );
    expect(codeOf(() => validateMimeType('text/plain', ['image/*']))).toBe('InvalidMimeType');
    expect(codeOf(() => validateMimeType('nonsense', ['image/*']))).toBe('InvalidMimeType');
  });

  it('validates object keys', () => {
    expect(() => mustBeValidKey('folder/a b (1).png')).not.toThrow();
    expect(codeOf(() => mustBeValidKey('a/ü.png'))).toBe('InvalidKey');
    expect(codeOf(() => mustBeValidKey(''))).toBe('InvalidKey');
  });

  it('parses byte ranges', () => {
    expect(parseRange('bytes=0-3', 10)).toEqual({ from: 0, to: 3, size: 4 });
    expect(parseRange('bytes=5-', 10)).toEqual({ from: 5, to: 9, size: 5 });
    expect(parseRange('bytes=-4', 10)).toEqual({ from: 6, to: 9, size: 4 });
    expect(parseRange('bytes=8-100', 10)).toEqual({ from: 8, to: 9, size: 2 });
    expect(codeOf(() => parseRange('bytes=10-12', 10))).toBe('InvalidRange');
    expect(codeOf(() => parseRange('items=0-1', 10))).toBe('InvalidRange');
  });

  it('prints timestamps as ISO and builds Content-Disposition', () => {
    expect(isoTime('2026-01-02 03:04:05.123456+00')).toBe('2026-01-02T03:04:05.123Z');
    expect(isoTime('2026-01-02 05:04:05+02')).toBe('2026-01-02T03:04:05.000Z');
    expect(isoTime(null)).toBeNull();
    expect(contentDisposition('')).toBe('attachment;');
    expect(contentDisposition('a b.png')).toBe(
      "attachment; filename=a%20b.png; filename*=UTF-8''a%20b.png",
    );
  });
});
