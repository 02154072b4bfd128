// Unit tests for media-type negotiation and Content-Range.
import { describe, expect, it } from 'vitest';
import { contentRange, negotiate, readStatus } from './response.js';

describe('negotiate', () => {
  it('picks the body shape from Accept', () => {
    expect(negotiate(null)).toBe('array');
    expect(negotiate('application/json')).toBe('array');
    expect(negotiate('*/*')).toBe('array');
    expect(negotiate('application/vnd.pgrst.object+json')).toBe('object');
    expect(negotiate('application/vnd.pgrst.object+json;nulls=stripped')).toBe('stripped-object');
    expect(negotiate('application/vnd.pgrst.array+json;nulls=stripped')).toBe('stripped');
    expect(negotiate('image/png, application/json')).toBe('array');
  });

  it('answers 406 PGRST107 for nothing acceptable and 501 for unimplemented outputs', () => {
    expect(() => negotiate('image/png')).toThrow(
      'None of these media types are available: image/png',
    );
    expect(() => negotiate('application/geo+json')).toThrow(/GeoJSON/);
    expect(negotiate('text/csv')).toBe('csv');
  });
});

describe('Content-Range', () => {
  it('formats ranges as PostgREST does', () => {
    expect(contentRange(0, 10, 123)).toBe('0-9/123');
    expect(contentRange(0, 0, 0)).toBe('*/0');
    expect(contentRange(5, 2, null)).toBe('5-6/*');
  });

  it('computes 200/206/416', () => {
    expect(readStatus(0, 4, 4)).toBe(200);
    expect(readStatus(0, 2, 4)).toBe(206);
    expect(readStatus(0, 2, null)).toBe(200);
    expect(() => readStatus(10, 0, 4)).toThrow('Requested range not satisfiable');
  });
});
