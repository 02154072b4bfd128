// Unit tests for filter values, logic trees and order.
import { describe, expect, it } from 'vitest';
import { parseFilterValue, parseLogicTree, parseOrder, splitTopLevel } from './filter-parser.js';

const col = { name: 'c', jsonPath: [] };

describe('parseFilterValue', () => {
  it('parses operators, negation and values containing dots', () => {
    expect(parseFilterValue(col, 'eq.1.5')).toEqual({
      kind: 'filter',
      field: col,
      negate: false,
      op: 'eq',
      value: '1.5',
    });
    expect(parseFilterValue(col, 'not.like.*a.b*')).toMatchObject({
      negate: true,
      op: 'like',
      value: '*a.b*',
    });
  });

  it('parses in-lists with quoted values', () => {
    expect(parseFilterValue(col, 'in.(1,"a,b","q\\"x",)').value).toEqual(['1', 'a,b', 'q"x', '']);
    expect(parseFilterValue(col, 'in.()').value).toEqual([]);
  });

  it('parses any/all quantifiers and fts configurations', () => {
    expect(parseFilterValue(col, 'like(any).{a*,b*}')).toMatchObject({
      quantifier: 'any',
      value: ['a*', 'b*'],
    });
    expect(parseFilterValue(col, 'fts(english).cat')).toMatchObject({
      op: 'fts',
      ftsConfig: 'english',
      value: 'cat',
    });
  });

  it('rejects unknown operators and bad is values', () => {
    expect(() => parseFilterValue(col, 'foo.1')).toThrow(/failed to parse filter/);
    expect(() => parseFilterValue(col, 'is.maybe')).toThrow(/failed to parse filter/);
    expect(() => parseFilterValue(col, 'in.1,2')).toThrow(/failed to parse filter/);
  });
});

describe('logic trees', () => {
  it('splits on top-level commas only', () => {
    expect(splitTopLevel('a.eq.1,b.in.(1,2),c.cs.{x,y},d.eq."p,q",and(e.eq.1,f.eq.2)')).toEqual([
      'a.eq.1',
      'b.in.(1,2)',
      'c.cs.{x,y}',
      'd.eq."p,q"',
      'and(e.eq.1,f.eq.2)',
    ]);
  });

  it('parses nested and negated trees', () => {
    const tree = parseLogicTree('or', '(a.eq.1,not.and(b.gt.2,c.is.null),d->>e.eq."x,y")');
    expect(tree.op).toBe('or');
    expect(tree.children[1]).toMatchObject({ kind: 'logic', op: 'and', negate: true });
    expect(tree.children[2]).toMatchObject({
      field: { name: 'd', jsonPath: [{ op: '->>', key: 'e' }] },
      value: 'x,y',
    });
    expect(() => parseLogicTree('or', 'a.eq.1')).toThrow(/logic tree/);
  });
});

describe('parseOrder', () => {
  it('parses directions, nulls and related columns', () => {
    expect(parseOrder('a.desc.nullslast,b,authors(name).asc')).toEqual([
      { field: { name: 'a', jsonPath: [] }, dir: 'desc', nulls: 'last', relation: undefined },
      { field: { name: 'b', jsonPath: [] }, relation: undefined },
      { field: { name: 'name', jsonPath: [] }, relation: 'authors', dir: 'asc' },
    ]);
    expect(() => parseOrder('a.sideways')).toThrow(/failed to parse order/);
  });
});
