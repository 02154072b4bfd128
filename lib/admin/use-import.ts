// Hooks of the CSV import dialog: the preview of a chosen file (head parsed with csv-parse, rows
// counted), the start (upload with progress, queued row, function call), and the live import row
// from Realtime, with a watchdog that calls the function again if the import stops moving.
import { useCallback, useEffect, useRef, useState } from 'react';
import { mutate } from 'swr';
import { SUPABASE_PUBLISHABLE_KEY, SUPABASE_URL } from '../config';
import { supabase } from '../supabase';
import { queryKey, QueryError, toQueryError, useQuery } from '../use-query';
import {
  checkImportFile,
  countRows,
  MAX_IMPORT_ROWS,
  PREVIEW_BYTES,
  previewCsv,
  rewrittenHeader,
  type ColumnMapping,
  type CsvPreview,
  type ParseSync,
} from './import-csv';
import {
  createImport,
  getImport,
  importObjectPath,
  IMPORTS_BUCKET,
  isStalled,
  startImport,
  type ImportExisting,
  type ImportOptin,
  type ImportView,
} from './imports';
import { concerns, listenTeam } from '../realtime/team-channel';
import { uploadWithProgress } from './upload-progress';
import { revalidateSubscribers } from './use-subscribers';

export type PreviewState =
  | { status: 'empty' }
  | { status: 'reading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; preview: CsvPreview; rows: number };

/** Reads the chosen file's head and counts its rows; refuses what the function would refuse. */
export function useCsvPreview(file: File | null): PreviewState {
  const [state, setState] = useState<PreviewState>({ status: 'empty' });
  useEffect(() => {
    if (!file) {
      setState({ status: 'empty' });
      return;
    }
    let live = true;
    const problem = checkImportFile(file);
    if (problem) {
      setState({ status: 'error', message: problem });
      return;
    }
    setState({ status: 'reading' });
    void (async () => {
      try {
        // The parser is loaded only when someone imports: it stays out of every page's bundle.
        const { parse } = await import('csv-parse/browser/esm/sync');
        const head = new Uint8Array(await file.slice(0, PREVIEW_BYTES).arrayBuffer());
        const preview = previewCsv(head, file.size <= PREVIEW_BYTES, parse as ParseSync);
        const rows = await countRows(file.stream());
        if (!live) return;
        if (rows > MAX_IMPORT_ROWS) {
          setState({
            status: 'error',
            message: `The file has more than ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows; split it into smaller files.`,
          });
        } else if (rows === 0) {
          setState({ status: 'error', message: 'The file has a header row but no data rows.' });
        } else setState({ status: 'ready', preview, rows });
      } catch (error) {
        if (live) setState({ status: 'error', message: (error as Error).message });
      }
    })();
    return () => {
      live = false;
    };
  }, [file]);
  return state;
}

export interface StartInput {
  file: File;
  preview: CsvPreview;
  mapping: ColumnMapping;
  listIds: string[];
  optin: ImportOptin;
  existing: ImportExisting;
  sendConfirmations: boolean;
}

export type StartState =
  | { phase: 'idle' }
  | { phase: 'uploading'; fraction: number }
  | { phase: 'starting' }
  | { phase: 'started'; importId: string }
  | { phase: 'error'; message: string; importId: string | null };

/** Upload (with progress), queue the row, call the function; the live row takes over from there. */
export function useStartImport() {
  const [state, setState] = useState<StartState>({ phase: 'idle' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const start = useCallback(async (input: StartInput) => {
    const controller = new AbortController();
    abort.current = controller;
    let importId: string | null = null;
    try {
      const { data } = await supabase.auth.getSession();
      const session = data.session;
      if (!session) throw new QueryError('Your session has ended: sign in again.');
      const header = rewrittenHeader(input.preview.columns, input.mapping, input.preview.delimiter);
      // The function knows columns by name only: a remapped file goes up with a new header line.
      const body = header
        ? new Blob([header, input.file.slice(input.preview.dataStart)], { type: 'text/csv' })
        : input.file;
      const path = importObjectPath(session.user.id, input.file.name);
      setState({ phase: 'uploading', fraction: 0 });
      await uploadWithProgress({
        supabaseUrl: SUPABASE_URL,
        apiKey: SUPABASE_PUBLISHABLE_KEY,
        accessToken: session.access_token,
        bucket: IMPORTS_BUCKET,
        path,
        body,
        contentType: 'text/csv',
        signal: controller.signal,
        onProgress: (fraction) => setState({ phase: 'uploading', fraction }),
      });
      setState({ phase: 'starting' });
      const row = await createImport(supabase, {
        objectPath: path,
        listIds: input.listIds,
        optin: input.optin,
        existing: input.existing,
        sendConfirmations: input.sendConfirmations,
      });
      importId = row.id;
      await mutate(importKey(row.id), row, { revalidate: false });
      await startImport(supabase, row.id);
      setState({ phase: 'started', importId: row.id });
    } catch (error) {
      setState({ phase: 'error', message: toQueryError(error).message, importId });
    }
  }, []);

  /** Calls the function again for an import queued but never started (its call failed). */
  const retry = useCallback(async (importId: string) => {
    setState({ phase: 'starting' });
    try {
      await startImport(supabase, importId);
      setState({ phase: 'started', importId });
    } catch (error) {
      setState({ phase: 'error', message: toQueryError(error).message, importId });
    }
  }, []);

  const reset = useCallback(() => {
    abort.current?.abort();
    setState({ phase: 'idle' });
  }, []);
  return { state, start, retry, reset };
}

export function importKey(id: string): string {
  return queryKey('admin/imports/one', { id });
}

/** How often the watchdog looks whether the import still moves. */
const WATCH_EVERY_MS = 5_000;

/**
 * One import, live: the row from REST, read again whenever the private topic team:imports names it
 * (each batch updates the row; members only). The channel is joined while `listen` holds — from the moment
 * the dialog opens, before the id exists — because a small file is imported within a second or
 * two of the call, sooner than a channel joined afterwards would be ready. The row is read again
 * once the channel is joined and when the import ends (final counts and errors from the table).
 */
export function useImportLive(id: string | null, listen: boolean) {
  const key = id ? importKey(id) : null;
  const query = useQuery<ImportView>(key, async () => ({
    data: await getImport(supabase, id!),
    error: null,
  }));
  const lastChange = useRef(Date.now());
  const current = useRef(id);
  useEffect(() => {
    current.current = id;
  }, [id]);
  const row = query.data ?? null;

  useEffect(() => {
    if (!listen) return;
    return listenTeam('team:imports', {
      onMessage: (message) => {
        const followed = current.current;
        // Other members' imports are heard too: only the one this dialog follows counts.
        if (!followed || !concerns(message, followed)) return;
        lastChange.current = Date.now();
        // The message carries the counters as the batch committed them: drawn as they come (a
        // read would miss a step when batches commit close together); the row is read again
        // when the import ends (errors and final counts from the table).
        const next = message.payload.imports?.find((i) => i.id === followed) as
          Partial<ImportView> | undefined;
        if (!next) return void mutate(importKey(followed));
        void mutate<ImportView | null>(
          importKey(followed),
          (old) => (old ? { ...old, ...next } : old),
          { revalidate: !next.status || next.status === 'done' || next.status === 'failed' },
        );
      },
      onJoin: () => {
        if (current.current) void mutate(importKey(current.current));
      },
    });
  }, [listen]);

  const status = row?.status;
  useEffect(() => {
    lastChange.current = Date.now();
  }, [row?.processed_rows, status]);

  // The pg_cron job postbox-resume-imports picks up a `running` import whose run died (README
  // "Batches and resuming"), but a `queued` one whose first call never arrived waits for a call,
  // and a missed Realtime message would leave the bar behind: if the row stops moving, read it
  // again and call the function (a call that races a live run does nothing).
  useEffect(() => {
    if (!id || !key || (status !== 'queued' && status !== 'running')) return;
    const timer = setInterval(() => {
      const current = row;
      if (current && isStalled(current, lastChange.current, Date.now())) {
        lastChange.current = Date.now();
        void mutate(key);
        void startImport(supabase, id).catch(() => undefined);
      }
    }, WATCH_EVERY_MS);
    return () => clearInterval(timer);
  }, [id, key, status, row]);

  // New subscribers and counts: everything on the subscribers page reads again.
  useEffect(() => {
    if (status === 'done') void revalidateSubscribers();
  }, [status]);

  return { ...query, row };
}
