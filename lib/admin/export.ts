// Exports of the subscribers page (SPEC §7 export-subscribers): the call that writes the subscribers
// matching a rule set (the page's filter or a selection) as CSV and answers a signed URL.
import type { SupabaseClient } from '@supabase/supabase-js';
import {
  isCount,
  isRecord,
  isString,
  readFunctionResult,
  toFunctionQueryError,
} from '../functions';
import { formatCount } from './format';
import type { RuleGroup } from './subscriber-rules';

export interface ExportResult {
  url: string;
  rows: number;
  expiresIn: number;
}

/** The "Export CSV" button's export (lib/admin/use-export.ts). */
export type ExportState =
  | { status: 'idle' }
  /** `rows`: written so far, once the function has reported any. */
  | { status: 'pending'; rows: number | null }
  | { status: 'ready'; result: ExportResult }
  | { status: 'error'; message: string };

/**
 * The state after a progress broadcast (`{ rows }`). Only a running export takes it, and only a
 * count higher than the last: broadcasts are fire-and-forget requests, so one can arrive after a
 * later one or after the answer, and must not move the bar back or turn a finished export into a
 * running one. A payload without a row count changes nothing.
 */
export function withReportedRows(state: ExportState, payload: unknown): ExportState {
  const rows = isRecord(payload) ? payload.rows : undefined;
  if (state.status !== 'pending' || !isCount(rows)) return state;
  if (state.rows !== null && rows <= state.rows) return state;
  return { status: 'pending', rows };
}

function parseExport(data: unknown): ExportResult | null {
  if (!isRecord(data) || !isString(data.url) || !isCount(data.rows)) return null;
  return {
    url: data.url,
    rows: data.rows,
    expiresIn: typeof data.expires_in === 'number' ? data.expires_in : 3600,
  };
}

/** `progress`: a UUID whose topic (exportProgressTopic) hears the rows written so far. */
export async function exportSubscribers(
  client: SupabaseClient,
  rules: RuleGroup,
  progress?: string,
): Promise<ExportResult> {
  const outcome = await readFunctionResult(
    await client.functions.invoke('export-subscribers', { body: { rules, progress } }),
    parseExport,
    { notDeployed: 'Exports are not available: the export-subscribers function is not deployed.' },
  );
  if (!outcome.ok) throw toFunctionQueryError(outcome);
  return outcome.data;
}

/**
 * What the page shows while an export runs: rows written so far against the table's count of
 * matching subscribers (which may have moved since: never past 100 %, and without a share once
 * the rows outnumber it).
 */
export function exportProgressView(
  rows: number | null,
  total: number | null,
): { text: string; percent: number | null } {
  if (rows === null) {
    // An empty bar already, so the line keeps its height when the first report fills it.
    return total === null || total === 0
      ? { text: 'Preparing the CSV…', percent: null }
      : { text: `Preparing ${formatCount(total)} rows…`, percent: 0 };
  }
  if (total === null || total === 0 || rows > total) {
    return { text: `${formatCount(rows)} rows written`, percent: null };
  }
  return {
    text: `${formatCount(rows)} of ${formatCount(total)} rows`,
    percent: Math.floor((rows / total) * 100),
  };
}
