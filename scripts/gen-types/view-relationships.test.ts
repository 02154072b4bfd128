// Unit tests for foreign keys inherited by views (view → table, table → view, view → view).
import { describe, expect, it } from 'vitest';
import { viewForeignKeys, type ForeignKey, type ViewDefinition } from './view-relationships.js';

/** A minimal stored query whose output columns are plain references [table oid, column]. */
const query = (...refs: [string, number][]) =>
  `({QUERY :targetList (${refs
    .map(
      ([tbl, col], i) =>
        `{TARGETENTRY :expr <> :resno ${i + 1} :resname c${i} :resorigtbl ${tbl} :resorigcol ${col} :resjunk false}`,
    )
    .join(' ')})})`;
const view = (
  oid: string,
  name: string,
  cols: string[],
  refs: [string, number][],
): ViewDefinition => ({
  oid,
  schema: 'public',
  name,
  definition: query(...refs),
  columns: cols.map((n, i) => ({ number: i + 1, name: n })),
});

// subscribers (oid 100) column 2 list_id → lists (oid 200) column 1 id.
const fk: ForeignKey = {
  foreign_key_name: 'subscribers_list_id_fkey',
  schema: 'public',
  relation: 'subscribers',
  relation_oid: '100',
  referenced_schema: 'public',
  referenced_relation: 'lists',
  referenced_oid: '200',
  columns: ['list_id'],
  column_numbers: [2],
  referenced_columns: ['id'],
  referenced_column_numbers: [1],
  is_one_to_one: false,
};
const pick = (keys: ForeignKey[]) =>
  keys.map(
    (k) => `${k.relation}(${k.columns}) → ${k.referenced_relation}(${k.referenced_columns})`,
  );

describe('viewForeignKeys', () => {
  it('gives a key to views on either side, and between two views', () => {
    const views = [
      view(
        '300',
        'active_subscribers',
        ['email', 'list_id'],
        [
          ['100', 3],
          ['100', 2],
        ],
      ),
      view(
        '400',
        'named_lists',
        ['id', 'name'],
        [
          ['200', 1],
          ['200', 2],
        ],
      ),
    ];
    expect(pick(viewForeignKeys([fk], views))).toEqual([
      'active_subscribers(list_id) → lists(id)',
      'subscribers(list_id) → named_lists(id)',
      'active_subscribers(list_id) → named_lists(id)',
    ]);
  });

  it('follows views of views down to the table, and offers every column showing a key column', () => {
    const views = [
      view('300', 'v1', ['list_id'], [['100', 2]]),
      view(
        '500',
        'v2',
        ['a', 'b'],
        [
          ['300', 1],
          ['300', 1],
        ],
      ),
    ];
    expect(pick(viewForeignKeys([fk], views))).toEqual([
      'v1(list_id) → lists(id)',
      'v2(a) → lists(id)',
      'v2(b) → lists(id)',
    ]);
  });

  it('ignores views that do not show every column of the key', () => {
    const composite: ForeignKey = { ...fk, columns: ['a', 'b'], column_numbers: [2, 3] };
    const views = [view('300', 'partial', ['a'], [['100', 2]])];
    expect(viewForeignKeys([composite], views)).toEqual([]);
  });
});
