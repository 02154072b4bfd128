// The progress of a send, the same bar in the editor's send panel and on the report: a progressbar
// named by its visible label ("Sending progress", "Sending paused" or "Sending cancelled"), "N of M
// sent" with the failed count when there is one, the percent, and a green bar once it is sent.
import { useId } from 'react';
import { ProgressBar, type ProgressTone } from '../../ui';
import styles from './SendProgress.module.css';
import { sendProgressView, type SendCounters, type SendProgressView } from './send-progress';

const TONE: Record<SendProgressView['state'], ProgressTone> = {
  running: 'brand',
  stopped: 'muted',
  done: 'success',
};

export function SendProgress({ campaign }: { campaign: SendCounters }) {
  const labelId = useId();
  const view = sendProgressView(campaign);
  return (
    <div className={styles.progress}>
      <div className={styles.head}>
        <span id={labelId} className={styles.label}>
          {view.label}
        </span>
        <span className={styles.percent} aria-hidden="true">
          {view.percent} %
        </span>
      </div>
      <ProgressBar
        aria-labelledby={labelId}
        aria-valuemax={view.valuemax}
        aria-valuenow={view.valuenow}
        aria-valuetext={view.valuetext}
        percent={view.percent}
        tone={TONE[view.state]}
      />
      <p className={styles.text} data-testid="send-progress-text">
        {view.text}
        {view.failed ? <span className={styles.failed}> · {view.failed}</span> : null}
      </p>
    </div>
  );
}
