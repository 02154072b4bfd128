// Unit tests for the postgres_changes filter parser.
import { describe, expect, it } from 'vitest';
import { FilterError, parseFilter } from './filters.js';

describe('parseFilter', () => {
  it('reads column, operator and value', () => {
    expect(parseFilter('id=eq.5')).toEqual({ column: 'id', op: 'eq', value: '5' });
    expect(parseFilter('body=neq.a.b')).toEqual({ column: 'body', op: 'neq', value: 'a.b' });
    expect(parseFilter('n=gte.-1')).toEqual({ column: 'n', op: 'gte', value: '-1' });
  });

  it('splits in lists, keeping quoted commas', () => {
    expect(parseFilter('id=in.(1, 2,3)')).toEqual({
      column: 'id',
      op: 'in',
      value: ['1', '2', '3'],
    });
    expect(parseFilter('t=in.("a,b",c)')).toEqual({ column: 't', op: 'in', value: ['a,b', 'c'] });
  });

  it('treats an empty filter as none', () => {
    expect(parseFilter(undefined)).toBeNull();
    expect(parseFilter('')).toBeNull();
  });

  it('rejects malformed filters and unsupported operators', () => {
    expect(() => parseFilter('id')).toThrow(FilterError);
    expect(() => parseFilter('id=eq')).toThrow(FilterError);
    expect(() => parseFilter('id=like.a%')).toThrow(/not supported/);
    expect(() => parseFilter('id=in.1,2')).toThrow(FilterError);
    const many = `id=in.(${Array.from({ length: 101 }, (_, i) => i).join(',')})`;
    expect(() => parseFilter(many)).toThrow(/at most 100/);
  });
});
