// Unit tests for the query-tree reader that traces view columns to table columns.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseNodeTree, viewColumnOrigins } from './node-tree.js';

describe('parseNodeTree', () => {
  it('reads nodes, fields, lists, nulls, quoted strings and escaped atoms', () => {
    expect(
      parseNodeTree('{A :x 1 :y (1 2) :z <> :w {B :q "a\\"b"} :name my\\ col :v 4 [ 1 0 ]}'),
    ).toEqual({
      type: 'A',
      fields: {
        x: '1',
        y: ['1', '2'],
        z: null,
        w: { type: 'B', fields: { q: '"a"b' } },
        name: 'my col',
        v: ['4', '[', '1', '0', ']'],
      },
    });
  });

  it('rejects a truncated tree', () => {
    expect(() => parseNodeTree('({QUERY :targetList (')).toThrow('query tree ends early');
  });
});

describe('viewColumnOrigins', () => {
  it('keeps plain column references of the top-level target list only (PostgreSQL 15 output)', async () => {
    // `create view v1 as select id, "my col" as n, id as id2, v+1 as w, (select 1) as s, x.q
    //  from t1, (select 5 as q) x order by v` — t1's oid on the second line.
    const [evAction, oid] = (
      await readFile(new URL('./fixtures/view-ev-action.txt', import.meta.url), 'utf8')
    ).split('\n');
    expect(viewColumnOrigins(evAction!)).toEqual([
      { column: 1, table: oid, tableColumn: 1 },
      { column: 2, table: oid, tableColumn: 2 },
      { column: 3, table: oid, tableColumn: 1 },
    ]);
  });

  it('refuses something that is not a query', () => {
    expect(() => viewColumnOrigins('({RANGETBLENTRY :relid 1})')).toThrow('must be a QUERY');
  });
});
