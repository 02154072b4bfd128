// Sending progress: sent + failed out of the fixed recipients, moved by Realtime updates of the
// campaign row, 100 % once the campaign is sent; a real progressbar with a visible "N of M sent".
import { campaignProgress, type CampaignRow } from '../../../../lib/admin/campaign-editor-form';
import { formatCount } from '../../../../lib/admin/format';
import styles from './Editor.module.css';

export function SendProgress({ campaign }: { campaign: CampaignRow }) {
  const progress = campaignProgress(campaign);
  const text = `${formatCount(campaign.sent)} of ${formatCount(progress.total)} sent`;
  const failed = campaign.failed > 0 ? `${formatCount(campaign.failed)} failed` : null;
  return (
    <div className={styles.progress}>
      <div className={styles.progressHead}>
        <span className={styles.progressText} data-testid="send-progress-text">
          {text}
          {failed ? <span className={styles.progressFailed}> · {failed}</span> : null}
        </span>
        <span className={styles.progressPercent} aria-hidden="true">
          {progress.percent} %
        </span>
      </div>
      <div
        className={styles.progressTrack}
        role="progressbar"
        aria-label="Sending progress"
        aria-valuemin={0}
        aria-valuemax={progress.total}
        aria-valuenow={campaign.status === 'sent' ? progress.total : progress.done}
        aria-valuetext={failed ? `${text}, ${failed}` : text}
      >
        <div
          className={`${styles.progressFill} ${campaign.status === 'sent' ? styles.progressDone : ''}`}
          style={{ width: `${progress.percent}%` }}
        />
      </div>
    </div>
  );
}
