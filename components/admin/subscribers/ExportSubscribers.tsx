// "Export CSV" (admins): exports exactly the rows the table's filters match through
// export-subscribers, starts the download from the signed URL, and keeps a link to it.
import { Download } from 'lucide-react';
import { useEffect } from 'react';
import { exportFilters } from '../../../lib/admin/export';
import { formatCount } from '../../../lib/admin/format';
import type { SubscriberFilters } from '../../../lib/admin/subscriber-query';
import { useExportSubscribers } from '../../../lib/admin/use-export';
import type { ListOption } from '../../../lib/admin/use-subscribers';
import { Button, StatusMessage } from '../../ui';
import styles from './ImportExport.module.css';

export function ExportSubscribers({
  filters,
  lists,
  filtered,
}: {
  filters: SubscriberFilters;
  lists: ListOption[];
  filtered: boolean;
}) {
  const { state, run, reset } = useExportSubscribers();

  // A new filter makes the last file stale: forget it.
  useEffect(() => reset(), [filters, reset]);

  let message = null;
  if (state.status === 'pending') {
    message = <StatusMessage tone="info">Preparing the CSV export…</StatusMessage>;
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
