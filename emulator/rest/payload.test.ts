// Unit tests for request-body parsing.
import { describe, expect, it } from 'vitest';
import { csvToObjects, jsonText, parsePayload } from './payload.js';

describe('parsePayload', () => {
  it('parses JSON, form-urlencoded and CSV bodies', () => {
    expect(parsePayload('{"a":1}', 'application/json; charset=utf-8', false)).toEqual({ a: 1 });
    expect(parsePayload('a=1&b=x+y', 'application/x-www-form-urlencoded', false)).toEqual({
      a: '1',
      b: 'x y',
    });
    expect(parsePayload('a,b\n1,"x,""y"""\n2,NULL\n', 'text/csv', false)).toEqual([
      { a: '1', b: 'x,"y"' },
      { a: '2', b: null },
    ]);
  });

  it('answers PGRST102 as PostgREST does', () => {
    expect(() => parsePayload('{"a":', 'application/json', false)).toThrow('Empty or invalid json');
    expect(() => parsePayload('', 'application/json', false)).toThrow('Empty or invalid json');
    expect(parsePayload('', 'application/json', true)).toEqual({});
    expect(() => parsePayload('x', 'text/plain', false)).toThrow(
      'Content-Type not acceptable: text/plain',
    );
    expect(() => csvToObjects('a,b\n1\n')).toThrow('All lines must have same number of fields');
  });
});

describe('jsonText', () => {
  it('is the body as sent for a JSON type (or none), null when empty or another type', () => {
    const body = '{"n": 3.14159265358979323846}';
    expect(jsonText(body, 'application/json; charset=utf-8')).toBe(body);
    expect(jsonText(body, null)).toBe(body);
    expect(jsonText(body, 'application/vnd.api+json')).toBe(body);
    expect(jsonText('  ', 'application/json')).toBeNull();
    expect(jsonText('a=1', 'application/x-www-form-urlencoded')).toBeNull();
    expect(jsonText('a\n1', 'text/csv')).toBeNull();
  });
});
