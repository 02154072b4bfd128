// "Export CSV" (admins): exports exactly the rows the table's filter matches (or, through the bulk
// bar, the selected rows) with export-subscribers, shows the rows written while it runs, starts the
// download from the signed URL, and keeps a link to it.
import { Download } from 'lucide-react';
import { useEffect } from 'react';
import { exportProgressView } from '../../../lib/admin/export';
import { formatCount } from '../../../lib/admin/format';
import type { RuleGroup } from '../../../lib/admin/subscriber-rules';
import { useExportSubscribers } from '../../../lib/admin/use-export';
import { Button, ProgressBar, StatusMessage } from '../../ui';
import styles from './ImportExport.module.css';

/** Rows written so far while the function works (it reports them through Realtime). */
function ExportProgress({ rows, total }: { rows: number | null; total: number | null }) {
  const { text, percent } = exportProgressView(rows, total);
  return (
    <div className={styles.exportProgress}>
      <div className={styles.barLabel}>
        <strong>Exporting to CSV</strong>
        <span>{text}</span>
      </div>
      {percent === null ? null : (
        <ProgressBar
          aria-label="Export progress"
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${percent} %, ${text}`}
          percent={percent}
          size="sm"
        />
      )}
    </div>
  );
}

export type Exporter = ReturnType<typeof useExportSubscribers>;

/** Exports `rules` and starts the download once the file is ready. */
export async function exportAndDownload(exporter: Exporter, rules: RuleGroup): Promise<void> {
  const result = await exporter.run(() => rules);
  // The signed URL answers with Content-Disposition: attachment, so opening it downloads the
  // file and leaves the page where it is.
  if (result) window.location.assign(result.url);
}

export function ExportSubscribers({
  exporter,
  rules,
  filtered,
  total,
  onExport,
}: {
  /** The page's export (useExportSubscribers), shared with the bulk bar's "Export CSV". */
  exporter: Exporter;
  /** The table's filter as rules. */
  rules: RuleGroup;
  filtered: boolean;
  /** How many subscribers the running export covers, when known: its 100 %. */
  total: number | null;
  /** Starts the export of `rules` (the page keeps how many rows it expects). */
  onExport: () => void;
}) {
  const { state, reset } = exporter;

  // A new filter makes the last file stale: forget it.
  useEffect(() => reset(), [rules, reset]);

  let message = null;
  if (state.status === 'pending') {
    message = <ExportProgress rows={state.rows} total={total} />;
  } else if (state.status === 'error') {
    message = <StatusMessage tone="error">The export failed: {state.message}</StatusMessage>;
  } else if (state.status === 'ready') {
    const { rows, url, expiresIn } = state.result;
    message = (
      <StatusMessage tone="success">
        Exported {formatCount(rows)} {filtered ? 'matching ' : ''}
        {rows === 1 ? 'subscriber' : 'subscribers'}. Your download should start; if it does not,{' '}
        <a className={styles.download} href={url} download="subscribers.csv">
          download subscribers.csv
        </a>{' '}
        (the link works for {Math.round(expiresIn / 60)} minutes).
      </StatusMessage>
    );
  }

  return (
    <>
      <Button icon={<Download />} loading={state.status === 'pending'} onClick={onExport}>
        Export CSV
      </Button>
      {message ? <div className={styles.toolbarMessage}>{message}</div> : null}
    </>
  );
}
