// Unit tests for the postgres_changes filter parser.
import { postgresChangesFilter } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { FilterError, parseFilter } from './filters.js';

const one = (column: string, op: string, value: unknown, negate = false) => ({
  conditions: [{ column, op, negate, value }],
});

describe('parseFilter', () => {
  it('reads column, operator and value', () => {
    expect(parseFilter('id=eq.5')).toEqual(one('id', 'eq', '5'));
    expect(parseFilter('body=neq.a.b')).toEqual(one('body', 'neq', 'a.b'));
    expect(parseFilter('n=gte.-1')).toEqual(one('n', 'gte', '-1'));
    expect(parseFilter('t=ilike.%a%')).toEqual(one('t', 'ilike', '%a%'));
    expect(parseFilter('t=not.is.null')).toEqual(one('t', 'is', 'null', true));
  });

  it('splits in lists, keeping quoted commas', () => {
    expect(parseFilter('id=in.(1, 2,3)')).toEqual(one('id', 'in', ['1', '2', '3']));
    expect(parseFilter('t=in.("a,b",c)')).toEqual(one('t', 'in', ['a,b', 'c']));
  });

  it('reads AND lists and quoted values as realtime-js builds them', () => {
    const built = postgresChangesFilter()
      .eq('id', 1)
      .in('tag', ['x', 'y,z'])
      .eq('body', 'say "hi", (now)')
      .not('owner', 'is', null)
      .build();
    expect(parseFilter(built)).toEqual({
      conditions: [
        { column: 'id', op: 'eq', negate: false, value: '1' },
        { column: 'tag', op: 'in', negate: false, value: ['x', 'y,z'] },
        { column: 'body', op: 'eq', negate: false, value: 'say "hi", (now)' },
        { column: 'owner', op: 'is', negate: true, value: 'null' },
      ],
    });
  });

  it('treats an empty filter as none', () => {
    expect(parseFilter(undefined)).toBeNull();
    expect(parseFilter('')).toBeNull();
  });

  it('rejects malformed filters and unknown operators', () => {
    expect(() => parseFilter('id')).toThrow(FilterError);
    expect(() => parseFilter('id=eq')).toThrow(FilterError);
    expect(() => parseFilter('id=between.1')).toThrow(/unknown filter operator/);
    expect(() => parseFilter('id=in.1,2')).toThrow(FilterError);
    expect(() => parseFilter('id=is.maybe')).toThrow(FilterError);
    expect(() => parseFilter('id=eq."open')).toThrow(/unterminated/);
    const many = `id=in.(${Array.from({ length: 101 }, (_, i) => i).join(',')})`;
    expect(() => parseFilter(many)).toThrow(/at most 100/);
  });
});
