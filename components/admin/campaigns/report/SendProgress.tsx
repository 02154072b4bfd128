// The live progress of a send: a labelled progressbar of recipients with a final outcome.
import { formatCount } from '../../../../lib/admin/format';
import styles from './Report.module.css';

export function SendProgress({
  done,
  total,
  paused,
}: {
  done: number;
  total: number;
  paused: boolean;
}) {
  const value = total ? Math.min(100, Math.round((done / total) * 100)) : 0;
  const label = paused ? 'Sending paused' : 'Sending progress';
  return (
    <div className={styles.progress}>
      <div className={styles.progressHead}>
        <span id="send-progress-label">{label}</span>
        <span>
          {formatCount(done)} of {formatCount(total)} ({value}%)
        </span>
      </div>
      <div
        className={styles.track}
        role="progressbar"
        aria-labelledby="send-progress-label"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={`${formatCount(done)} of ${formatCount(total)} recipients done`}
      >
        <div className={styles.bar} style={{ width: `${value}%` }} />
      </div>
    </div>
  );
}
