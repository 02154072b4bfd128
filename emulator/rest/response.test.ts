// Unit tests for media-type negotiation and Content-Range.
import { describe, expect, it } from 'vitest';
import {
  acceptOrder,
  contentRange,
  contentType,
  mediaContentType,
  negotiate,
  readStatus,
} from './response.js';

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

  it('answers 406 PGRST107 for nothing acceptable; CSV and GeoJSON are outputs', () => {
    expect(() => negotiate('image/png')).toThrow(
      'None of these media types are available: image/png',
    );
    expect(negotiate('text/csv')).toBe('csv');
    expect(negotiate('application/geo+json')).toBe('geojson');
    // The best acceptable range wins, so a singular object before GeoJSON is still an object.
    expect(negotiate('application/vnd.pgrst.object+json, application/geo+json')).toBe('object');
    expect(negotiate('application/json;q=0.5, application/geo+json')).toBe('geojson');
    expect(contentType('geojson')).toBe('application/geo+json; charset=utf-8');
  });

  it('orders Accept by q, then specificity, as PostgREST (wai-extra parseHttpAccept) does', () => {
    expect(negotiate('application/json;q=0.5,text/csv')).toBe('csv');
    expect(negotiate('text/csv;q=0.2, application/vnd.pgrst.object+json;q=0.9')).toBe('object');
    expect(negotiate('*/*, text/csv')).toBe('csv');
    expect(negotiate('text/csv;q=0.5, application/json;q=0.5')).toBe('csv');
    expect(acceptOrder('a/a;q=0.1, b/b;q=x, c/*, c/c;nulls=stripped;q=1;z=1')).toEqual([
      'c/c;nulls=stripped',
      'b/b',
      'c/*',
      'a/a',
    ]);
  });

  it("picks a media-type function's own type in Accept order, and nothing else's", () => {
    expect(negotiate('text/plain', 'text/plain')).toBe('media');
    expect(negotiate('image/png, text/plain', 'text/plain')).toBe('media');
    expect(negotiate('application/json, text/plain', 'text/plain')).toBe('array');
    expect(negotiate(null, 'text/plain')).toBe('array');
    expect(() => negotiate('text/plain')).toThrow('None of these media types are available');
    expect(() => negotiate('text/xml', 'text/plain')).toThrow(/text\/xml/);
  });
});

describe('mediaContentType', () => {
  it('adds a charset only to the types PostgREST knows', () => {
    expect(mediaContentType('text/plain')).toBe('text/plain; charset=utf-8');
    expect(mediaContentType('application/vnd.twkb')).toBe('application/vnd.twkb');
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
