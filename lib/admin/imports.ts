// Reads and writes of a CSV import (SPEC §3 `imports`, §7 import-subscribers; supabase/functions/
// README.md "CSV import"): the object path, the queued row, the call that starts or resumes it,
// and the numbers the progress bar and the error list show.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Tables } from '../database.types';
import { isRecord, readFunctionResult, toFunctionQueryError } from '../functions';
import { unwrap } from '../use-query';

export const IMPORTS_BUCKET = 'imports';

export type ImportRecord = Tables<'imports'>;
export type ImportOptin = 'confirmed' | 'pending';
/** What an import does to the name and attributes of addresses that are already subscribers. */
export type ImportExisting = 'merge' | 'overwrite' | 'keep';

/** The columns the page needs (not the lease or the resume position). */
export const IMPORT_COLUMNS =
  'id,object_path,list_ids,optin,existing,send_confirmations,status,total_rows,processed_rows,inserted,updated,skipped,errors,error_count,failure_reason,created_at,started_at,finished_at';

export type ImportView = Pick<
  ImportRecord,
  | 'id'
  | 'object_path'
  | 'list_ids'
  | 'optin'
  | 'existing'
  | 'send_confirmations'
  | 'status'
  | 'total_rows'
  | 'processed_rows'
  | 'inserted'
  | 'updated'
  | 'skipped'
  | 'errors'
  | 'error_count'
  | 'failure_reason'
  | 'created_at'
  | 'started_at'
  | 'finished_at'
>;

/**
 * `<user id>/<time>-<file name>.csv`: one folder per member and the time first, so two uploads
 * of `contacts.csv` never collide (the upload never overwrites).
 */
export function importObjectPath(userId: string, fileName: string, now = Date.now()): string {
  const base = (fileName.split(/[\\/]/).pop() ?? '')
    .replace(/\.csv$/i, '')
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${userId}/${now}-${base || 'import'}.csv`;
}

/** Queues the import (RLS: an admin's own, queued, naming existing lists). */
export async function createImport(
  client: SupabaseClient,
  input: {
    objectPath: string;
    listIds: string[];
    optin: ImportOptin;
    existing?: ImportExisting;
    /** Pending imports only: mail the confirmation email to the addresses left pending. */
    sendConfirmations?: boolean;
  },
): Promise<ImportView> {
  return unwrap(
    await client
      .from('imports')
      .insert({
        object_path: input.objectPath,
        list_ids: input.listIds,
        optin: input.optin,
        existing: input.existing ?? 'merge',
        send_confirmations: input.optin === 'pending' && (input.sendConfirmations ?? false),
      })
      .select(IMPORT_COLUMNS)
      .single(),
  ) as ImportView;
}

export async function getImport(client: SupabaseClient, id: string): Promise<ImportView | null> {
  return unwrap(
    await client.from('imports').select(IMPORT_COLUMNS).eq('id', id).maybeSingle(),
  ) as ImportView | null;
}

/**
 * Starts (or resumes) the import: the function answers 202 at once and goes on in the background,
 * handing over to a fresh run of itself when its time budget is spent. Calling it again is safe:
 * an import another run holds, or one that has ended, is answered as it is.
 */
export async function startImport(client: SupabaseClient, id: string): Promise<void> {
  const outcome = await readFunctionResult(
    await client.functions.invoke('import-subscribers', { body: { import_id: id } }),
    (data) => (isRecord(data) && isRecord(data.import) ? data.import : null),
    { notDeployed: 'Imports are not available: the import-subscribers function is not deployed.' },
  );
  if (!outcome.ok) throw toFunctionQueryError(outcome);
}

export interface ImportError {
  line: number;
  reason: string;
}

/** The stored bad rows (`errors`: the first 100 `{line, reason}`), ignoring anything malformed. */
export function importErrors(errors: unknown): ImportError[] {
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((e: unknown) =>
    isRecord(e) && typeof e.line === 'number' && typeof e.reason === 'string'
      ? [{ line: e.line, reason: e.reason }]
      : [],
  );
}

export interface ImportProgress {
  /** 0–100; a finished import is 100 whatever its counts. */
  percent: number;
  processed: number;
  total: number | null;
  finished: boolean;
  /** Bad rows not in the stored list ("and N more"). */
  moreErrors: number;
}

export function importProgress(row: ImportView): ImportProgress {
  const total = row.total_rows;
  const finished = row.status === 'done' || row.status === 'failed';
  let percent = 0;
  if (row.status === 'done') percent = 100;
  else if (total !== null && total > 0) {
    percent = Math.min(100, Math.floor((row.processed_rows / total) * 100));
  } else if (total === 0 && row.status !== 'queued') percent = 100;
  const stored = importErrors(row.errors).length;
  return {
    percent,
    processed: row.processed_rows,
    total,
    finished,
    moreErrors: Math.max(0, row.error_count - stored),
  };
}

/** A watchdog's rule: the import should move but has not for this long, so call the function. */
export const STALL_MS = 75_000;

export function isStalled(row: ImportView, lastChangeAt: number, now: number): boolean {
  return (row.status === 'queued' || row.status === 'running') && now - lastChangeAt >= STALL_MS;
}
