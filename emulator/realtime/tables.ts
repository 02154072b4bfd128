// Catalogue facts the change feed needs per table and role, cached briefly (columns, keys, RLS, grants).
import type { Db, Queryable } from '../db/types.js';
import type { Identity } from './auth.js';
import { asCaller } from './caller.js';
import type { ChangeFilter } from './filters.js';
import { SQL } from './sql.js';

export interface Column {
  name: string;
  /** pg_type.typname, what walrus reports: int4, text, _text, jsonb, timestamptz … */
  type: string;
  sqlType: string;
  pk: boolean;
}

export interface TableShape {
  relid: number;
  /** Quoted `"schema"."table"`. */
  qualified: string;
  columns: Column[];
}

export interface RoleView {
  canSelect: boolean;
  bypassRls: boolean;
  /** Columns the role may select (walrus hides the others). */
  columns: Set<string>;
}

const ident = (name: string) => '"' + name.replace(/"/g, '""') + '"';

const OPERATORS: Record<Exclude<ChangeFilter['op'], 'in'>, string> = {
  eq: '=',
  neq: '<>',
  lt: '<',
  lte: '<=',
  gt: '>',
  gte: '>=',
};

export class TableCatalog {
  private shapes = new Map<string, Promise<TableShape | null>>();
  private views = new Map<string, Promise<RoleView>>();

  constructor(private readonly db: Db) {}

  /** Forget cached facts (run on each refresh tick so DDL is picked up). */
  clear(): void {
    this.shapes.clear();
    this.views.clear();
  }

  async relid(schema: string, table: string): Promise<number | null> {
    const { rows } = await this.db.query<{ relid: string }>(SQL['find-table'], [schema, table]);
    return rows[0] ? Number(rows[0].relid) : null;
  }

  shape(relid: number, schema: string, table: string): Promise<TableShape | null> {
    const key = String(relid);
    let shape = this.shapes.get(key);
    if (!shape) {
      shape = this.loadShape(relid, schema, table);
      this.shapes.set(key, shape);
    }
    return shape;
  }

  private async loadShape(relid: number, schema: string, table: string) {
    const { rows } = await this.db.query<{
      name: string;
      type: string;
      sql_type: string;
      pk: boolean;
    }>(SQL['table-shape'], [relid]);
    if (!rows.length) return null;
    return {
      relid,
      qualified: `${ident(schema)}.${ident(table)}`,
      columns: rows.map((r) => ({ name: r.name, type: r.type, sqlType: r.sql_type, pk: r.pk })),
    };
  }

  roleView(role: string, relid: number): Promise<RoleView> {
    const key = `${role}|${relid}`;
    let view = this.views.get(key);
    if (!view) {
      view = this.loadRoleView(role, relid);
      this.views.set(key, view);
    }
    return view;
  }

  private async loadRoleView(role: string, relid: number): Promise<RoleView> {
    const none: RoleView = { canSelect: false, bypassRls: false, columns: new Set() };
    const exists = await this.db.query<{ exists: boolean }>(SQL['role-exists'], [role]);
    if (!exists.rows[0]?.exists) return none;
    const { rows } = await this.db.query<{
      can_select: boolean;
      bypass_rls: boolean;
      columns: string[];
    }>(SQL['role-privileges'], [role, relid]);
    const row = rows[0];
    if (!row) return none;
    return {
      canSelect: row.can_select || row.columns.length > 0,
      bypassRls: row.bypass_rls === true,
      columns: new Set(row.columns),
    };
  }

  /** Does `record` pass the filter, comparing after a cast to the column's type (as walrus does)? */
  async matches(shape: TableShape, filter: ChangeFilter, record: unknown): Promise<boolean> {
    const column = shape.columns.find((c) => c.name === filter.column);
    if (!column || !record) return false;
    const cell = `r.${ident(column.name)}`;
    // sqlType comes from format_type() over the catalogue, never from the request.
    const test =
      filter.op === 'in'
        ? `${cell} = any (cast($2::text[] as ${column.sqlType}[]))`
        : `${cell} ${OPERATORS[filter.op]} cast($2::text as ${column.sqlType})`;
    const sql = `select coalesce(${test}, false) as ok from jsonb_populate_record(null::${shape.qualified}, $1::jsonb) r`;
    try {
      const { rows } = await this.db.query<{ ok: boolean }>(sql, [record, filter.value]);
      return rows[0]?.ok === true;
    } catch {
      // A value that does not cast to the column type matches nothing (walrus answers false too).
      return false;
    }
  }

  /** May the caller see this row under the table's SELECT policies? Looked up by primary key. */
  async visible(shape: TableShape, identity: Identity, record: unknown): Promise<boolean> {
    const keys = shape.columns.filter((c) => c.pk).map((c) => ident(c.name));
    const where = keys.length
      ? `(${keys.map((k) => `x.${k}`).join(', ')}) = (select ${keys.map((k) => `r.${k}`).join(', ')} from jsonb_populate_record(null::${shape.qualified}, $1::jsonb) r)`
      : 'to_jsonb(x) = $1::jsonb';
    const sql = `select exists (select 1 from ${shape.qualified} x where ${where}) as visible`;
    try {
      return await asCaller(this.db, identity, '', async (tx: Queryable) => {
        const { rows } = await tx.query<{ visible: boolean }>(sql, [record]);
        return rows[0]?.visible === true;
      });
    } catch {
      return false;
    }
  }
}
