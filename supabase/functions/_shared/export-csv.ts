// Writes the subscribers matching an admin's rule set to the private `exports` bucket as CSV
// (SPEC §7): pages of 5,000 come from SQL as ready CSV lines and are streamed into one upload as
// bytes, so neither side holds the whole export in memory. The pages are read with the admin's
// own token, so the rules are evaluated under their row-level security (issue 23).
import { adminClient, rpcFailure } from './db.ts';
import { env } from './env.ts';
import { AppError } from './errors.ts';
import type { RuleGroup } from '../../../lib/admin/subscriber-rules.ts';

/** Who reads the pages: the caller's access token. */
export interface ExportCaller {
  token: string;
}

export const EXPORT_HEADER = 'email,name,status,lists,created_at,attributes\r\n';
const PAGE_ROWS = 5_000;

/**
 * One page of CSV lines after `after`, as the raw response of export_subscribers_matching_csv: its body is
 * the page's bytes (Accept: text/plain), its headers the row count and last id. The bytes are
 * passed on without ever becoming a JS string; decoding, re-encoding and collecting a megabyte
 * string per page cost most of a 1,000,000-row export's CPU time, close to the 2 s a request has.
 */
async function fetchPage(rules: RuleGroup, caller: ExportCaller, after: string | null) {
  const name = 'export_subscribers_matching_csv';
  const response = await fetch(`${env.supabaseUrl}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${caller.token}`,
      apikey: env.anonKey(),
      'Content-Type': 'application/json',
      Accept: 'text/plain',
    },
    body: JSON.stringify({ p_rules: rules, p_after: after, p_limit: PAGE_ROWS }),
  });
  if (!response.ok) {
    const text = await response.text();
    let error: { message?: string } = { message: text };
    try {
      error = JSON.parse(text);
    } catch {
      // Not PostgREST's JSON error: keep the text for the log.
    }
    throw rpcFailure(name, error);
  }
  const rows = Number(response.headers.get('x-export-rows'));
  const lastId = response.headers.get('x-export-last-id') || null;
  if (!Number.isInteger(rows) || rows < 0 || (rows > 0 && !lastId)) {
    await response.body?.cancel();
    console.error(`rpc ${name} answered without its row count or last id`);
    throw new AppError('internal');
  }
  return { rows, lastId, body: response.body };
}

/** What the upload learns from the bytes it read: rows passed on, and why they stopped early. */
interface ExportRun {
  rows: number;
  /** fetch reports a body that failed only as a generic error; this is the real one. */
  failure: unknown;
}

/** The export's bytes, page after page, counted into `run` and reported to `progress`. */
async function* exportBytes(
  rules: RuleGroup,
  caller: ExportCaller,
  run: ExportRun,
  progress: (rows: number) => void,
): AsyncGenerator<Uint8Array> {
  try {
    yield new TextEncoder().encode(EXPORT_HEADER);
    let after: string | null = null;
    for (;;) {
      const page = await fetchPage(rules, caller, after);
      // Pulled only as fast as the upload reads, so at most a page or two is in memory.
      if (page.body) yield* page.body;
      progress((run.rows += page.rows));
      if (page.rows < PAGE_ROWS) return;
      after = page.lastId;
    }
  } catch (error) {
    run.failure = error;
    throw error;
  }
}

/**
 * Streams every matching subscriber to `exports/<path>`; returns how many rows were written.
 * `progress` hears the rows passed on so far after each page.
 */
export async function writeExport(
  path: string,
  rules: RuleGroup,
  caller: ExportCaller,
  progress: (rows: number) => void = () => {},
): Promise<number> {
  const run: ExportRun = { rows: 0, failure: null };
  const body = ReadableStream.from(exportBytes(rules, caller, run, progress));
  const key = path.split('/').map(encodeURIComponent).join('/');
  let response: Response;
  try {
    response = await fetch(`${env.supabaseUrl}/storage/v1/object/exports/${key}`, {
      method: 'POST',
      headers: env.serviceHeaders({ 'Content-Type': 'text/csv', 'x-upsert': 'false' }),
      body,
      // @ts-ignore: Deno needs duplex for a streamed request body; the DOM typings lack it.
      duplex: 'half',
    });
  } catch (error) {
    throw run.failure ?? error;
  }
  if (run.failure) throw run.failure;
  if (!response.ok) {
    const text = await response.text();
    console.error('export upload failed', response.status, text);
    if (/maximum allowed size|too large|exceeded/i.test(text)) {
      throw new AppError(
        'payload_too_large',
        'The export is larger than the storage upload limit.',
      );
    }
    throw new AppError('internal');
  }
  await response.body?.cancel();
  return run.rows;
}

/** A link to the file that works for `seconds`, without signing in. */
export async function signedExportUrl(path: string, seconds: number): Promise<string> {
  const { data, error } = await adminClient()
    .storage.from('exports')
    .createSignedUrl(path, seconds, { download: 'subscribers.csv' });
  if (error || !data) {
    console.error('signing the export failed', error);
    throw new AppError('internal');
  }
  return data.signedUrl;
}
