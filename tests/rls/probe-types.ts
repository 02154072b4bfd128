// The shape of an RLS matrix fixture (probes.ts builds them, cases.ts runs them), apart from both
// so they do not import each other.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Actor } from './team-kit';

/** Equality filters (PostgREST column paths allowed) that pick one row. */
export type Key = Record<string, string | boolean>;

export interface Probe {
  /** The table the requests go to. */
  table: string;
  /** Columns read back; the whole row for members, who may read it all. */
  columns: string;
  /** Arranges a row to read, update or delete, and returns its key. */
  seed(): Promise<Key>;
  /** A new row for the caller to insert (prerequisites arranged as service role), and its key. */
  newRow(): Promise<{ row: Record<string, unknown>; key: Key }>;
  /** The change an update makes; the test checks it did or did not land. */
  change(): Record<string, unknown>;
  /** Makes room before an allowed insert (the one settings row). */
  beforeAllowedInsert?(): Promise<void>;
  /** Puts things back after an allowed delete (the one settings row). */
  afterAllowedDelete?(): Promise<void>;
  /** Asserts that `db` reads exactly what everyone may read (outcome `public`). */
  checkPublic?(db: SupabaseClient, actor: Actor): Promise<void>;
}
