// Test kit for CSV import and export: an emulator with the real supabase/ folder, a member's own
// supabase-js client (so RLS decides), uploads to the imports bucket, queued imports started
// through import-subscribers, and waiting for an import to finish.
import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { RunningEmulator } from '../../emulator/index';
import { callFunction, sql, startFunctionsEmulator, type CallResult } from '../functions/kit';

export { member, type Member, type Role } from '../campaigns/kit';

/** Starts the emulator with these POSTBOX_* settings (they reach Deno through the environment). */
export async function startImportEmulator(
  settings: Record<string, string> = {},
): Promise<RunningEmulator> {
  Object.assign(process.env, { POSTBOX_IMPORT_TEST_HOOKS: 'on', ...settings });
  return startFunctionsEmulator();
}

/** supabase-js as this signed-in member: every query and upload goes through RLS. */
export function clientAs(emu: RunningEmulator, token: string): SupabaseClient {
  return createClient(emu.url, emu.keys.publishable, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
  });
}

export interface ImportRow {
  id: string;
  status: string;
  total_rows: number | null;
  processed_rows: number;
  inserted: number;
  updated: number;
  skipped: number;
  error_count: number;
  errors: { line: number; reason: string }[];
  failure_reason: string | null;
}

/** Uploads `csv` as this member and queues an import of it; returns the import id. */
/** The import row's options: its lists (by slug), opt-in, and what happens to existing subscribers. */
export interface ImportOptions {
  lists?: string[];
  optin?: 'confirmed' | 'pending';
  existing?: 'merge' | 'overwrite' | 'keep';
}

export async function queueImport(
  emu: RunningEmulator,
  token: string,
  csv: string | Uint8Array,
  options: ImportOptions = {},
): Promise<string> {
  const client = clientAs(emu, token);
  const path = `${randomUUID()}.csv`;
  const upload = await client.storage
    .from('imports')
    .upload(path, new Blob([csv as BlobPart], { type: 'text/csv' }), { contentType: 'text/csv' });
  if (upload.error) throw new Error(`upload: ${upload.error.message}`);
  const lists = await sql<{ id: string }>(emu, `select id from public.lists where slug = any($1)`, [
    options.lists ?? [],
  ]);
  const inserted = await client
    .from('imports')
    .insert({
      object_path: path,
      list_ids: lists.map((l) => l.id),
      optin: options.optin ?? 'confirmed',
      existing: options.existing ?? 'merge',
    })
    .select('id')
    .single();
  if (inserted.error) throw new Error(`insert import: ${inserted.error.message}`);
  return inserted.data.id as string;
}

export async function startImport(
  emu: RunningEmulator,
  token: string,
  importId: string,
  extra: Record<string, unknown> = {},
): Promise<CallResult> {
  return callFunction(emu, 'import-subscribers', {
    bearer: token,
    body: { import_id: importId, ...extra },
  });
}

export async function importRow(emu: RunningEmulator, id: string): Promise<ImportRow> {
  const [row] = await sql<ImportRow>(emu, `select * from public.imports where id = $1`, [id]);
  if (!row) throw new Error(`no import ${id}`);
  return row;
}

/** Waits until the import is done or failed (or `until` holds). */
export async function waitForImport(
  emu: RunningEmulator,
  id: string,
  until: (row: ImportRow) => boolean = (row) => row.status === 'done' || row.status === 'failed',
  timeoutMs = 120_000,
): Promise<ImportRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await importRow(emu, id);
    if (until(row)) return row;
    if (Date.now() > deadline) throw new Error(`import ${id} stuck: ${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Uploads, queues, starts and waits: the whole import as an admin sees it. */
export async function importCsv(
  emu: RunningEmulator,
  token: string,
  csv: string | Uint8Array,
  options: ImportOptions = {},
): Promise<ImportRow> {
  const id = await queueImport(emu, token, csv, options);
  const started = await startImport(emu, token, id);
  if (started.status !== 202) throw new Error(`start: ${started.status} ${started.text}`);
  return waitForImport(emu, id);
}

/** A unique address for this run. */
export function address(tag: string): string {
  return `${tag}-${randomUUID().slice(0, 8)}@example.com`;
}
