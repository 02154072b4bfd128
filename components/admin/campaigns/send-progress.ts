// What the send progress bar (SendProgress.tsx) shows for a campaign's counters: kept apart from
// the markup so unit tests (no JSX transform there) can check every state.
import { campaignProgress, type CampaignRow } from '../../../lib/admin/campaign-editor-form';
import { formatCount } from '../../../lib/admin/format';

export type SendCounters = Pick<CampaignRow, 'status' | 'sent' | 'failed' | 'recipients'>;

export interface SendProgressView {
  /** The visible label, which names the progressbar: a stopped send says so. */
  label: string;
  state: 'running' | 'stopped' | 'done';
  /** "N of M sent". */
  text: string;
  /** "K failed", or null when nothing failed. */
  failed: string | null;
  percent: number;
  valuenow: number;
  valuemax: number;
  valuetext: string;
}

export function sendProgressView(campaign: SendCounters): SendProgressView {
  const progress = campaignProgress(campaign);
  const text = `${formatCount(campaign.sent)} of ${formatCount(progress.total)} sent`;
  const failed = campaign.failed > 0 ? `${formatCount(campaign.failed)} failed` : null;
  const done = campaign.status === 'sent';
  const stopped = campaign.status === 'paused' || campaign.status === 'cancelled';
  return {
    label:
      campaign.status === 'paused'
        ? 'Sending paused'
        : campaign.status === 'cancelled'
          ? 'Sending cancelled'
          : 'Sending progress',
    state: done ? 'done' : stopped ? 'stopped' : 'running',
    text,
    failed,
    percent: progress.percent,
    // A sent campaign is complete even if a counter update is still on its way.
    valuenow: done ? progress.total : progress.done,
    valuemax: progress.total,
    valuetext: failed ? `${text}, ${failed}` : text,
  };
}
