// Relationships for embedding, derived from foreign keys (also through views), and their resolution.
import { RestError } from './errors.js';
import type { ForeignKeyRow, Table, ViewSourceRow } from './schema-types.js';

export interface Relationship {
  /** many-to-one and one-to-one embed an object; one-to-many and many-to-many an array. */
  cardinality: 'many-to-one' | 'one-to-many' | 'one-to-one' | 'many-to-many';
  constraint: string;
  source: Table;
  target: Table;
  /** Paired columns: source.sourceColumns[i] = target.targetColumns[i]. */
  sourceColumns: string[];
  targetColumns: string[];
  /** Computed relationship: the quoted function (taking the source row) that yields the target rows. */
  computedFn?: string;
  /** The name an embed uses: the target table's, or the computed relationship's function name. */
  name: string;
  /** many-to-many: the junction table, its columns referencing source and target. */
  junction?: {
    table: Table;
    sourceColumns: string[];
    targetColumns: string[];
    targetConstraint: string;
  };
}

const key = (t: Table) => `${t.schema}.${t.name}`;

function isUnique(table: Table, columns: string[]): boolean {
  return table.uniqueKeys.some(
    (k) => k.length === columns.length && k.every((c) => columns.includes(c)),
  );
}

/** Every table standing for `table`: itself plus views that read it and expose all `columns`. */
function standIns(
  table: Table,
  columns: string[],
  tables: Map<string, Table>,
  views: ViewSourceRow[],
): Table[] {
  const out = [table];
  for (const v of views) {
    if (v.source_schema !== table.schema || v.source_table !== table.name) continue;
    const view = tables.get(`${v.schema}.${v.view}`);
    if (view && columns.every((c) => view.columnMap.has(c))) out.push(view);
  }
  return out;
}

export function buildRelationships(
  tables: Map<string, Table>,
  fks: ForeignKeyRow[],
  views: ViewSourceRow[],
): Map<string, Relationship[]> {
  const out = new Map<string, Relationship[]>();
  const add = (rel: Relationship) => {
    const k = key(rel.source);
    out.set(k, [...(out.get(k) ?? []), rel]);
  };
  for (const fk of fks) {
    const child = tables.get(`${fk.schema}.${fk.table}`);
    const parent = tables.get(`${fk.ref_schema}.${fk.ref_table}`);
    if (!child || !parent) continue;
    const oneToOne = isUnique(child, fk.columns);
    for (const c of standIns(child, fk.columns, tables, views)) {
      for (const p of standIns(parent, fk.ref_columns, tables, views)) {
        add({
          name: p.name,
          cardinality: oneToOne ? 'one-to-one' : 'many-to-one',
          constraint: fk.name,
          source: c,
          target: p,
          sourceColumns: fk.columns,
          targetColumns: fk.ref_columns,
        });
        add({
          name: c.name,
          cardinality: oneToOne ? 'one-to-one' : 'one-to-many',
          constraint: fk.name,
          source: p,
          target: c,
          sourceColumns: fk.ref_columns,
          targetColumns: fk.columns,
        });
      }
    }
  }
  addManyToMany(tables, fks, add);
  return out;
}

/**
 * A junction table has two foreign keys whose columns are all part of its primary key; it relates
 * the two referenced tables many-to-many (PostgREST's `addM2MRels`).
 */
function addManyToMany(
  tables: Map<string, Table>,
  fks: ForeignKeyRow[],
  add: (r: Relationship) => void,
): void {
  for (const a of fks) {
    const junction = tables.get(`${a.schema}.${a.table}`);
    if (!junction || !a.columns.every((c) => junction.primaryKey.includes(c))) continue;
    for (const b of fks) {
      if (b === a || b.schema !== a.schema || b.table !== a.table) continue;
      if (!b.columns.every((c) => junction.primaryKey.includes(c))) continue;
      const source = tables.get(`${a.ref_schema}.${a.ref_table}`);
      const target = tables.get(`${b.ref_schema}.${b.ref_table}`);
      if (!source || !target) continue;
      add({
        name: target.name,
        cardinality: 'many-to-many',
        constraint: a.name,
        source,
        target,
        sourceColumns: a.ref_columns,
        targetColumns: b.ref_columns,
        junction: {
          table: junction,
          sourceColumns: a.columns,
          targetColumns: b.columns,
          targetConstraint: b.name,
        },
      });
    }
  }
}

/**
 * Finds the relationship `source` → `targetName` with an optional `!hint` (a constraint name or a
 * column on either side), as PostgREST's `findRel` does.
 */
export function findRelationship(
  relationships: Map<string, Relationship[]>,
  source: Table,
  targetName: string,
  hint: string | undefined,
): Relationship | RestError {
  const all = relationships.get(key(source)) ?? [];
  let found = all.filter((r) => r.name === targetName);
  if (found.length > 1) {
    const sameSchema = found.filter((r) => r.target.schema === source.schema);
    if (sameSchema.length) found = sameSchema;
  }
  if (hint !== undefined) {
    found = found.filter(
      (r) =>
        r.constraint === hint ||
        r.junction?.table.name === hint ||
        r.junction?.targetConstraint === hint ||
        (r.sourceColumns.length === 1 && r.sourceColumns[0] === hint) ||
        (r.targetColumns.length === 1 && r.targetColumns[0] === hint),
    );
  }
  if (found.length === 1) return found[0]!;
  if (found.length === 0) {
    return new RestError(
      400,
      'PGRST200',
      `Could not find a relationship between '${source.name}' and '${targetName}' in the schema cache`,
      `Searched for a foreign key relationship between '${source.name}' and '${targetName}'${
        hint ? ` using the hint '${hint}'` : ''
      } in the schema '${source.schema}', but no matches were found.`,
    );
  }
  return new RestError(
    300,
    'PGRST201',
    `Could not embed because more than one relationship was found for '${source.name}' and '${targetName}'`,
    found.map((r) => ({
      cardinality: r.cardinality,
      embedding: `${source.name} with ${targetName}`,
      relationship: r.junction
        ? `${r.junction.table.name} using ${r.constraint}(${r.junction.sourceColumns.join(', ')}) and ${r.junction.targetConstraint}(${r.junction.targetColumns.join(', ')})`
        : `${r.constraint} using ${r.source.name}(${r.sourceColumns.join(', ')}) and ${r.target.name}(${r.targetColumns.join(', ')})`,
    })),
    // PostgREST's relHint: the junction table names an m2m relationship, the constraint the rest.
    `Try changing '${targetName}' to one of the following: ${found
      .map((r) => `'${targetName}!${r.junction ? r.junction.table.name : r.constraint}'`)
      .join(', ')}. Find the desired relationship in the 'details' key.`,
  );
}
