// "Export CSV" (admins): exports exactly the rows the table's filters match through
// export-subscribers, shows the rows written while it runs, starts the download from the signed
// URL, and keeps a link to it.
import { Download } from 'lucide-react';
import { useEffect } from 'react';
import { exportFilters, exportProgressView } from '../../../lib/admin/export';
import { formatCount } from '../../../lib/admin/format';
import type { SubscriberFilters } from '../../../lib/admin/subscriber-query';
import { useExportSubscribers } from '../../../lib/admin/use-export';
import type { ListOption } from '../../../lib/admin/use-subscribers';
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

export function ExportSubscribers({
  filters,
  lists,
  filtered,
  total,
}: {
  filters: SubscriberFilters;
  lists: ListOption[];
  filtered: boolean;
  /** The table's count of matching subscribers, when known: the export's 100 %. */
  total: number | null;
}) {
  const { state, run, reset } = useExportSubscribers();

  // A new filter makes the last file stale: forget it.
  useEffect(() => reset(), [filters, reset]);

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

  const exportNow = async () => {
    const result = await run(() => exportFilters(filters, lists));
    // The signed URL answers with Content-Disposition: attachment, so opening it downloads the
    // file and leaves the page where it is.
    if (result) window.location.assign(result.url);
  };

  return (
    <>
      <Button
        icon={<Download />}
        loading={state.status === 'pending'}
        onClick={() => void exportNow()}
      >
        Export CSV
      </Button>
      {message ? <div className={styles.toolbarMessage}>{message}</div> : null}
    </>
  );
}
