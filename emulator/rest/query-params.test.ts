// Unit tests for splitting a query string into levels, paging and write parameters.
import { describe, expect, it } from 'vitest';
import { parseQuery } from './query-params.js';

describe('parseQuery', () => {
  it('routes filters, order and paging to the root or an embed path', () => {
    const q = parseQuery(
      new URLSearchParams(
        'select=id,books(id)&id=gt.1&books.title=eq.x&books.order=id.desc&books.limit=2&limit=5&offset=1&or=(a.eq.1,b.eq.2)&books.or=(c.eq.3)&not.and=(d.eq.4)',
      ),
    );
    const root = q.levels.get('')!;
    expect(root.conditions).toHaveLength(3);
    expect([root.limit, root.offset]).toEqual([5, 1]);
    const books = q.levels.get('books')!;
    expect(books.conditions).toHaveLength(2);
    expect(books.order).toHaveLength(1);
    expect(books.limit).toBe(2);
  });

  it('keeps JSON paths with dots in keys of the last segment', () => {
    const q = parseQuery(new URLSearchParams('meta->>lang=eq.en'));
    expect(q.levels.get('')!.conditions[0]).toMatchObject({
      field: { name: 'meta', jsonPath: [{ op: '->>', key: 'lang' }] },
    });
  });

  it('reads columns and on_conflict', () => {
    const q = parseQuery(new URLSearchParams('columns="a","b c"&on_conflict=a,b'));
    expect(q.columns).toEqual(['a', 'b c']);
    expect(q.onConflict).toEqual(['a', 'b']);
  });

  it('treats function argument names as RPC arguments', () => {
    const q = parseQuery(new URLSearchParams('a=1&b=eq.2&c=gt.3'), new Set(['a', 'b']));
    expect(q.rest).toEqual([
      ['a', '1'],
      ['b', 'eq.2'],
    ]);
    expect(q.levels.get('')!.conditions).toHaveLength(1);
  });

  it('rejects a negative or non-numeric limit', () => {
    expect(() => parseQuery(new URLSearchParams('limit=-1'))).toThrow(/limit/);
  });
});
