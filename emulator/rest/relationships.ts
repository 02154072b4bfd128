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

const isView = (t: Table) => t.kind === 'v' || t.kind === 'm';

/** The single column on the origin's (or the foreign table's) side, for column hints. */
const single = (columns: string[]) => (columns.length === 1 ? columns[0] : undefined);

/**
 * Whether `r` is what `targetName` with `hint` asks for, by PostgREST's `findRel` rules: the
 * foreign table's name, or (for tables) the foreign key's constraint name or its single column
 * on the origin's side; a hint narrows a table name down by constraint, either side's single
 * column or the junction table. A self-relationship is one foreign key seen both ways: the table's
 * own name means the to-many side (children), its column the to-one side (parent), and
 * `table!column` the children referencing the origin through that column.
 */
function matches(r: Relationship, targetName: string, hint?: string): boolean {
  if (r.computedFn) return r.name === targetName;
  const m2m = r.cardinality === 'many-to-many';
  const byConstraint = (name: string) => !m2m && r.constraint === name;
  const bySourceColumn = (name: string) => !m2m && single(r.sourceColumns) === name;
  const byTargetColumn = (name: string) => !m2m && single(r.targetColumns) === name;
  if (key(r.source) === key(r.target)) {
    if (hint === undefined) {
      return (
        (r.target.name === targetName && r.cardinality === 'one-to-many') ||
        (bySourceColumn(targetName) && r.cardinality === 'many-to-one')
      );
    }
    return r.target.name === targetName && r.cardinality === 'one-to-many' && byTargetColumn(hint);
  }
  if (hint === undefined) {
    return (
      r.target.name === targetName ||
      (!isView(r.target) && (byConstraint(targetName) || bySourceColumn(targetName)))
    );
  }
  return (
    r.target.name === targetName &&
    (byConstraint(hint) ||
      bySourceColumn(hint) ||
      byTargetColumn(hint) ||
      r.junction?.table.name === hint)
  );
}

const CARDINALITY_ORDER = ['one-to-many', 'many-to-one', 'one-to-one', 'many-to-many'];

/**
 * PostgREST's order of candidates (its derived `Ord Relationship`, which PGRST201 lists): foreign
 * table, self or not, cardinality (one-to-many, many-to-one, one-to-one, many-to-many), then the
 * constraint and columns, or for many-to-many the junction and its two constraints; computed
 * relationships last.
 */
function upstreamOrder(a: Relationship, b: Relationship): number {
  const sortKey = (r: Relationship): string[] => [
    r.computedFn ? '1' : '0',
    r.target.schema,
    r.target.name,
    key(r.source) === key(r.target) ? '1' : '0',
    String(CARDINALITY_ORDER.indexOf(r.cardinality)),
    ...(r.junction
      ? [r.junction.table.schema, r.junction.table.name, r.constraint, r.junction.targetConstraint]
      : [r.constraint]),
    ...r.sourceColumns.flatMap((c, i) => [c, r.targetColumns[i]!]),
  ];
  const [x, y] = [sortKey(a), sortKey(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  }
  return x.length - y.length;
}

/**
 * Finds the relationship `source` → `targetName` with an optional `!hint`, as PostgREST's
 * `findRel` does (see matches()).
 */
export function findRelationship(
  relationships: Map<string, Relationship[]>,
  source: Table,
  targetName: string,
  hint: string | undefined,
): Relationship | RestError {
  const all = relationships.get(key(source)) ?? [];
  let found = all.filter((r) => matches(r, targetName, hint)).sort(upstreamOrder);
  if (found.length > 1) {
    const sameSchema = found.filter((r) => r.target.schema === source.schema);
    if (sameSchema.length) found = sameSchema;
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
