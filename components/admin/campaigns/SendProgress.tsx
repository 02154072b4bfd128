// The progress of a send, the same bar in the editor's send panel and on the report: a progressbar
// named by its visible label ("Sending progress", "Sending paused" or "Sending cancelled"), "N of M
// sent" with the failed count when there is one, the percent, and a green bar once it is sent.
import { useId } from 'react';
import styles from './SendProgress.module.css';
import { sendProgressView, type SendCounters } from './send-progress';

export function SendProgress({ campaign }: { campaign: SendCounters }) {
  const labelId = useId();
  const view = sendProgressView(campaign);
  const state = view.state === 'running' ? '' : styles[view.state];
  return (
    <div className={`${styles.progress} ${state}`}>
      <div className={styles.head}>
        <span id={labelId} className={styles.label}>
          {view.label}
        </span>
        <span className={styles.percent} aria-hidden="true">
          {view.percent} %
        </span>
      </div>
      <div
        className={styles.track}
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={view.valuemax}
        aria-valuenow={view.valuenow}
        aria-valuetext={view.valuetext}
      >
        <div className={styles.fill} style={{ width: `${view.percent}%` }} />
      </div>
      <p className={styles.text} data-testid="send-progress-text">
        {view.text}
        {view.failed ? <span className={styles.failed}> · {view.failed}</span> : null}
      </p>
    </div>
  );
}
