// Gives views the foreign keys of the tables they expose, as PostgREST does (SchemaCache.hs, view
// key dependencies) and `supabase gen types` writes them: a view showing every column of a foreign
// key gets that relationship, on the referencing side, the referenced side, or both.
import { viewColumnOrigins } from './node-tree.js';

/** A foreign key as the `relationships` query returns it. */
export interface ForeignKey {
  foreign_key_name: string;
  schema: string;
  relation: string;
  relation_oid: string;
  referenced_schema: string;
  referenced_relation: string;
  referenced_oid: string;
  columns: string[];
  column_numbers: number[];
  referenced_columns: string[];
  referenced_column_numbers: number[];
  is_one_to_one: boolean;
}

export interface ViewDefinition {
  oid: string;
  schema: string;
  name: string;
  definition: string;
  columns: { number: number; name: string }[];
}

interface ViewKey {
  schema: string;
  name: string;
  /** Every way to pick one view column per key column (a column may be shown twice). */
  columnChoices: string[][];
}

const product = (lists: string[][]): string[][] =>
  lists.reduce<string[][]>((acc, list) => acc.flatMap((xs) => list.map((x) => [...xs, x])), [[]]);

export function viewForeignKeys(foreignKeys: ForeignKey[], views: ViewDefinition[]): ForeignKey[] {
  const byOid = new Map(views.map((v) => [v.oid, v]));
  // Each view column traced through views of views down to a table column, if it is a plain one.
  const direct = new Map(views.map((v) => [v.oid, viewColumnOrigins(v.definition)]));
  const base = (table: string, column: number, seen: Set<string>): [string, number] | null => {
    if (!byOid.has(table)) return [table, column];
    if (seen.has(table)) return null; // A cycle cannot come from Postgres, but never loop.
    const origin = direct.get(table)!.find((o) => o.column === column);
    return origin ? base(origin.table, origin.tableColumn, new Set([...seen, table])) : null;
  };
  const origins = new Map(
    views.map((v) => [
      v.oid,
      direct.get(v.oid)!.flatMap((o) => {
        const found = base(o.table, o.tableColumn, new Set([v.oid]));
        const name = v.columns.find((c) => c.number === o.column)?.name;
        return found && name ? [{ name, table: found[0], tableColumn: found[1] }] : [];
      }),
    ]),
  );

  /** Views that show every one of these table columns. */
  const viewsShowing = (table: string, columns: number[]): ViewKey[] =>
    views.flatMap((v) => {
      const shown = origins.get(v.oid)!;
      const choices = columns.map((col) =>
        shown.filter((o) => o.table === table && o.tableColumn === col).map((o) => o.name),
      );
      if (choices.some((c) => !c.length)) return [];
      return [{ schema: v.schema, name: v.name, columnChoices: product(choices) }];
    });

  return foreignKeys.flatMap((fk) => {
    const from = viewsShowing(fk.relation_oid, fk.column_numbers);
    const to = viewsShowing(fk.referenced_oid, fk.referenced_column_numbers);
    const asFrom = (v: ViewKey) =>
      v.columnChoices.map((columns) => ({ ...fk, schema: v.schema, relation: v.name, columns }));
    const asTo = (key: ForeignKey, v: ViewKey) =>
      v.columnChoices.map((referenced_columns) => ({
        ...key,
        referenced_schema: v.schema,
        referenced_relation: v.name,
        referenced_columns,
      }));
    const viewToTable = from.flatMap(asFrom);
    const tableToView = to.flatMap((v) => asTo(fk, v));
    const viewToView = viewToTable.flatMap((key) => to.flatMap((v) => asTo(key, v)));
    return [...viewToTable, ...tableToView, ...viewToView];
  });
}
