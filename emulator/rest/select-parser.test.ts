// Unit tests for the select= grammar.
import { describe, expect, it } from 'vitest';
import { RestError } from './errors.js';
import { parseSelect } from './select-parser.js';

describe('parseSelect', () => {
  it('treats absent or empty select as *', () => {
    expect(parseSelect(null)).toEqual([{ kind: 'star' }]);
    expect(parseSelect('')).toEqual([{ kind: 'star' }]);
  });

  it('parses columns, aliases, casts and JSON paths', () => {
    expect(parseSelect('id,name:title,p:pages::text,data->a->>b,"my col"')).toEqual([
      { kind: 'column', field: { name: 'id', jsonPath: [] } },
      { kind: 'column', field: { name: 'title', jsonPath: [] }, alias: 'name' },
      { kind: 'column', field: { name: 'pages', jsonPath: [] }, alias: 'p', cast: 'text' },
      {
        kind: 'column',
        field: {
          name: 'data',
          jsonPath: [
            { op: '->', key: 'a' },
            { op: '->>', key: 'b' },
          ],
        },
      },
      { kind: 'column', field: { name: 'my col', jsonPath: [] } },
    ]);
  });

  it('parses embeds with hints, join types, aliases and spreads', () => {
    expect(
      parseSelect('*,a:authors!fk_x!inner(name,countries(*)),...profiles(bio),books!left()'),
    ).toEqual([
      { kind: 'star' },
      {
        kind: 'embed',
        name: 'authors',
        alias: 'a',
        hint: 'fk_x',
        joinType: 'inner',
        spread: false,
        select: [
          { kind: 'column', field: { name: 'name', jsonPath: [] } },
          {
            kind: 'embed',
            name: 'countries',
            joinType: 'left',
            spread: false,
            select: [{ kind: 'star' }],
          },
        ],
      },
      {
        kind: 'embed',
        name: 'profiles',
        joinType: 'left',
        spread: true,
        select: [{ kind: 'column', field: { name: 'bio', jsonPath: [] } }],
      },
      { kind: 'embed', name: 'books', joinType: 'left', spread: false, select: [] },
    ]);
  });

  it('ignores whitespace outside quotes, as the client strips it', () => {
    expect(parseSelect('id, title')).toHaveLength(2);
  });

  it('rejects bad syntax with PGRST100', () => {
    for (const bad of ['id,', 'a(b', 'x::', 'a:b:c', 'amount.median()', 'amount.sum']) {
      expect(() => parseSelect(bad)).toThrow(RestError);
      try {
        parseSelect(bad);
      } catch (err) {
        expect((err as RestError).code).toBe('PGRST100');
      }
    }
  });

  it('reads aggregates: count(), col.fn(), casts of input and result, aliases', () => {
    expect(parseSelect('count(),total:amount.sum(),amount::int.avg()::text')).toEqual([
      { kind: 'aggregate', fn: 'count', alias: undefined, cast: undefined },
      {
        kind: 'aggregate',
        fn: 'sum',
        field: { name: 'amount', jsonPath: [] },
        alias: 'total',
        inputCast: undefined,
        cast: undefined,
      },
      {
        kind: 'aggregate',
        fn: 'avg',
        field: { name: 'amount', jsonPath: [] },
        alias: undefined,
        inputCast: 'int',
        cast: 'text',
      },
    ]);
    // A name with `()` other than count is an empty embed, as upstream parses it.
    expect(parseSelect('sum()')[0]).toMatchObject({ kind: 'embed', name: 'sum' });
  });
});
