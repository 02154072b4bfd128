// An import under way: the upload bar, then the import's own bar and counters as Realtime reports
// each batch, the outcome, and the skipped rows with their line numbers (first 100, then "N more").
import { formatCount } from '../../../lib/admin/format';
import { importErrors, importProgress, type ImportView } from '../../../lib/admin/imports';
import type { StartState } from '../../../lib/admin/use-import';
import { LoadingState, ProgressBar, StatusMessage, Table } from '../../ui';
import styles from './ImportExport.module.css';

function Bar({ label, percent, text }: { label: string; percent: number; text: string }) {
  return (
    <div>
      <div className={styles.barLabel}>
        <strong>{label}</strong>
        <span>{text}</span>
      </div>
      <ProgressBar
        aria-label={label}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent} %, ${text}`}
        percent={percent}
      />
    </div>
  );
}

const STATUS_TEXT: Record<string, string> = {
  queued: 'Waiting to start…',
  running: 'Importing…',
  done: 'Finished',
  failed: 'Stopped',
};

export function ImportProgress({
  fileName,
  state,
  row,
  loadError,
}: {
  fileName: string;
  state: StartState;
  row: ImportView | null;
  loadError: string | null;
}) {
  if (state.phase === 'uploading') {
    const percent = Math.floor(state.fraction * 100);
    return (
      <div className={styles.progress}>
        <Bar label="Upload" percent={percent} text={`${fileName}: ${percent} % sent`} />
      </div>
    );
  }
  if (!row) {
    if (loadError) return <StatusMessage tone="error">{loadError}</StatusMessage>;
    return <LoadingState label="Starting the import…" />;
  }
  const progress = importProgress(row);
  const errors = importErrors(row.errors);
  const rowsText =
    progress.total === null
      ? `${STATUS_TEXT[row.status] ?? row.status} Counting rows…`
      : `${formatCount(progress.processed)} of ${formatCount(progress.total)} rows`;

  return (
    <div className={styles.progress}>
      <Bar label="Import progress" percent={progress.percent} text={rowsText} />
      <p className={styles.summary} aria-live="polite">
        {STATUS_TEXT[row.status] ?? row.status}
      </p>
      <dl className={styles.counts}>
        {(
          [
            ['Processed', row.processed_rows],
            ['Added', row.inserted],
            ['Updated', row.updated],
            ['Skipped', row.skipped],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className={styles.count}>
            <dt>{label}</dt>
            <dd>{formatCount(value)}</dd>
          </div>
        ))}
      </dl>
      {row.status === 'done' ? (
        <StatusMessage tone="success">
          Import finished: {formatCount(row.inserted)} added, {formatCount(row.updated)} updated,{' '}
          {formatCount(row.skipped)} skipped.
        </StatusMessage>
      ) : null}
      {row.status === 'failed' ? (
        <StatusMessage tone="error">
          The import stopped: {row.failure_reason ?? 'an unknown error.'}{' '}
          {row.processed_rows === 0 ? 'No row was written.' : null}
        </StatusMessage>
      ) : null}
      {state.phase === 'error' ? <StatusMessage tone="error">{state.message}</StatusMessage> : null}
      {errors.length > 0 ? (
        <>
          <Table caption="Rows skipped">
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {errors.map((e, i) => (
                <tr key={`${e.line}-${i}`}>
                  <td>{formatCount(e.line)}</td>
                  <td>{e.reason}</td>
                </tr>
              ))}
            </tbody>
          </Table>
          {progress.moreErrors > 0 ? (
            <p className={styles.more}>
              and {formatCount(progress.moreErrors)} more{' '}
              {progress.moreErrors === 1 ? 'row was' : 'rows were'} skipped.
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
