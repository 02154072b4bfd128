// Catalogue facts the change feed needs per table and role, cached briefly (columns, keys, RLS, grants).
import type { Db } from '../db/types.js';
import type { Identity } from './auth.js';
import type { ChangeFilter, FilterCondition } from './filters.js';
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

/** SQL for one condition on the cell `c`, its value bound as parameter `p` (walrus check_equality_op). */
function conditionSql(cond: FilterCondition, c: string, sqlType: string, p: string): string {
  const typed = `cast(${p}::text as ${sqlType})`;
  switch (cond.op) {
    case 'eq':
      return `${c} = ${typed}`;
    case 'neq':
      return `${c} <> ${typed}`;
    case 'lt':
      return `${c} < ${typed}`;
    case 'lte':
      return `${c} <= ${typed}`;
    case 'gt':
      return `${c} > ${typed}`;
    case 'gte':
      return `${c} >= ${typed}`;
    case 'in':
      return `${c} = any (cast(${p}::text[] as ${sqlType}[]))`;
    case 'like':
      return `${c}::text like ${p}::text`;
    case 'ilike':
      return `${c}::text ilike ${p}::text`;
    case 'match':
      return `${c}::text ~ ${p}::text`;
    case 'imatch':
      return `${c}::text ~* ${p}::text`;
    case 'is': {
      // The keyword was checked by the parser (null, true, false, unknown).
      const keyword = String(cond.value).toLowerCase();
      return keyword === 'null' ? `${c} is null` : `${c}::boolean is ${keyword}`;
    }
    case 'isdistinct':
      return String(cond.value) === 'null'
        ? `${c} is distinct from null`
        : `${c} is distinct from ${typed}`;
  }
}

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

  /** Does `record` pass every condition, comparing after a cast to the column's type (as walrus does)? */
  async matches(shape: TableShape, filter: ChangeFilter, record: unknown): Promise<boolean> {
    if (!record) return false;
    const params: unknown[] = [record];
    const tests: string[] = [];
    for (const cond of filter.conditions) {
      const column = shape.columns.find((c) => c.name === cond.column);
      if (!column) return false;
      // Only bind a value the SQL uses: Postgres cannot type an unreferenced parameter.
      const usesValue = cond.op !== 'is' && !(cond.op === 'isdistinct' && cond.value === 'null');
      if (usesValue) params.push(cond.value);
      // sqlType comes from format_type() over the catalogue, never from the request.
      const test = conditionSql(
        cond,
        `r.${ident(column.name)}`,
        column.sqlType,
        `$${params.length}`,
      );
      tests.push(cond.negate ? `not (${test})` : `(${test})`);
    }
    const sql = `select coalesce(${tests.join(' and ')}, false) as ok from jsonb_populate_record(null::${shape.qualified}, $1::jsonb) r`;
    try {
      const { rows } = await this.db.query<{ ok: boolean }>(sql, params);
      return rows[0]?.ok === true;
    } catch {
      // A value that does not cast to the column type matches nothing.
      return false;
    }
  }

  /**
   * Which of `identities` may see this row under the table's SELECT policies, looked up by primary
   * key — all in one statement (_realtime.visible_to), as walrus checks every subscription of a
   * change in one call. Answers one boolean per identity, in order; a failure counts as unseen.
   */
  async visibleTo(shape: TableShape, identities: Identity[], record: unknown): Promise<boolean[]> {
    if (identities.length === 0) return [];
    const keys = shape.columns.filter((c) => c.pk).map((c) => ident(c.name));
    const condition = keys.length
      ? `(${keys.map((k) => `x.${k}`).join(', ')}) = (select ${keys.map((k) => `r.${k}`).join(', ')} from jsonb_populate_record(null::${shape.qualified}, $1::jsonb) r)`
      : 'to_jsonb(x) = $1::jsonb';
    const callers = identities.map(({ role, claims }) => ({
      role,
      claims,
      sub: typeof claims.sub === 'string' ? claims.sub : '',
    }));
    try {
      // One statement = one implicit transaction, so the roles it switches to end with it.
      const { rows } = await this.db.query<{ seen: boolean[] }>(SQL['visible-to'], [
        shape.relid,
        condition,
        JSON.stringify(record),
        JSON.stringify(callers),
      ]);
      const answer = rows[0]?.seen ?? [];
      return identities.map((_, i) => answer[i] === true);
    } catch {
      return identities.map(() => false);
    }
  }
}
