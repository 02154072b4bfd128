// Keeps the capture triggers (setup.sql capture_rows()/capture()) on exactly the tables of publication supabase_realtime.
import type { Db } from '../db/types.js';
import { SQL } from './sql.js';

const ident = (name: string) => '"' + name.replace(/"/g, '""') + '"';

/**
 * The capture triggers of a table: per statement with transition tables (one trigger per event,
 * as PostgreSQL allows transition tables only on single-event triggers), or — where a statement
 * may name another table than the one whose rows it changes — one row trigger.
 */
const STATEMENT_TRIGGERS: Record<string, (table: string) => string> = {
  _realtime_capture_insert: (table) =>
    `after insert on ${table} referencing new table as _realtime_new_rows for each statement`,
  _realtime_capture_update: (table) =>
    `after update on ${table} referencing old table as _realtime_old_rows new table as _realtime_new_rows for each statement`,
  _realtime_capture_delete: (table) =>
    `after delete on ${table} referencing old table as _realtime_old_rows for each statement`,
};
const ROW_TRIGGERS: Record<string, (table: string) => string> = {
  _realtime_capture: (table) => `after insert or update or delete on ${table} for each row`,
};

/**
 * Puts the capture triggers on every table of publication supabase_realtime and takes them off
 * tables that left it.
 */
export async function reconcileCaptureTriggers(db: Db): Promise<void> {
  type Row = { schema: string; table: string; relid: string };
  const published = await db.query<Row & { per_row: boolean }>(SQL['published-tables']);
  const captured = await db.query<Row & { trigger: string }>(SQL['captured-tables']);
  const have = new Map<string, { row: Row; triggers: Set<string> }>();
  for (const r of captured.rows) {
    const entry = have.get(r.relid) ?? { row: r, triggers: new Set<string>() };
    entry.triggers.add(r.trigger);
    have.set(r.relid, entry);
  }
  for (const r of published.rows) {
    const want = r.per_row ? ROW_TRIGGERS : STATEMENT_TRIGGERS;
    const present = have.get(r.relid)?.triggers ?? new Set<string>();
    have.delete(r.relid);
    const missing = Object.keys(want).filter((t) => !present.has(t));
    const extra = [...present].filter((t) => !(t in want));
    if (!missing.length && !extra.length) continue;
    // One transaction, so a table switching between row and statement capture (it became a
    // partition, or the emulator was upgraded) never captures a change twice or not at all.
    const table = `${ident(r.schema)}.${ident(r.table)}`;
    await db.transaction(async (tx) => {
      for (const t of missing) {
        await tx.exec(
          `create or replace trigger ${t} ${want[t]!(table)} execute function _realtime.${r.per_row ? 'capture' : 'capture_rows'}()`,
        );
      }
      for (const t of extra) await tx.exec(`drop trigger if exists ${t} on ${table}`);
    });
  }
  // Tables that left the publication.
  for (const { row, triggers } of have.values()) {
    const table = `${ident(row.schema)}.${ident(row.table)}`;
    await db.transaction(async (tx) => {
      for (const t of triggers) await tx.exec(`drop trigger if exists ${t} on ${table}`);
    });
  }
}
