// The process-queue worker (SPEC §9): starts due scheduled campaigns, then claims batches of 100,
// sends each message at the shared rate and records results in groups as they come (the sending
// itself is campaign-worker.ts). Many workers may run at the same time: claims use SKIP LOCKED and
// every write checks the worker's claim token.
import { adminClient, rpc } from './db.ts';
import { AppError } from './errors.ts';
import { anonymousRendering, loadMailSettings } from './campaign-mail.ts';
import { queueRpc } from './delivery-results.ts';
import { Worker } from './campaign-worker.ts';
import type { QueueOptions, QueueResult } from './queue-run.ts';

export { MAX_ATTEMPTS } from './delivery-results.ts';
export { BATCH_SIZE } from './campaign-worker.ts';

/** The fields of a campaign a send renders from, as they were read. */
export interface CampaignAsRead {
  id: string;
  body_md: string;
  subject: string;
  preheader: string;
}

/**
 * Checks the merge tags (`template_error` names the line), renders and starts a campaign (draft or
 * scheduled); answers the recipient count. body_html is nobody's copy (defaults apply): what the
 * archive shows. The SQL refuses (conflict) when body_md or subject changed since `campaign` was
 * read, so what is archived and sent is always rendered from what was stored when the send started.
 */
export async function startCampaign(campaign: CampaignAsRead): Promise<number> {
  const archived = anonymousRendering(campaign, await loadMailSettings());
  return await rpc<number>('start_campaign_send', {
    p_campaign_id: campaign.id,
    p_body_html: archived.bodyHtml,
    p_body_md: campaign.body_md,
    p_subject: campaign.subject,
  });
}

/**
 * Scheduled campaigns whose time has come. A scheduled send that cannot start (nobody to send to, or
 * no longer valid, e.g. without lists) goes back to draft instead of being retried every run.
 */
async function startDueCampaigns(): Promise<void> {
  const { data, error } = await adminClient()
    .from('campaigns')
    .select('id, body_md, subject, preheader')
    .eq('status', 'scheduled')
    .lte('scheduled_at', new Date().toISOString())
    .limit(20);
  if (error) throw new AppError('internal');
  for (const campaign of data ?? []) {
    try {
      await startCampaign(campaign);
    } catch (e) {
      // Another worker started it first (conflict), or it cannot be sent as it is.
      if (
        e instanceof AppError &&
        ['no_recipients', 'invalid_input', 'template_error'].includes(e.code)
      ) {
        await rpc('campaign_action', { p_campaign_id: campaign.id, p_action: 'unschedule' });
        console.warn(
          `scheduled campaign ${campaign.id} could not start (${e.message}); back to draft`,
        );
      } else if (!(e instanceof AppError && e.code === 'conflict')) {
        console.error(`starting scheduled campaign ${campaign.id} failed`, e);
      }
    }
  }
}

export async function runQueue(options: QueueOptions): Promise<QueueResult> {
  const deadline = Date.now() + options.budgetMs;
  const result: QueueResult = {
    claimed: 0,
    sent: 0,
    deferred: 0,
    failed: 0,
    campaigns_finished: 0,
    more: false,
  };
  await startDueCampaigns();
  result.campaigns_finished += await queueRpc<number>('finish_idle_campaigns', {});
  const worker = new Worker(options, result, deadline, await loadMailSettings());
  await worker.run();
  if (!worker.abandoned)
    result.campaigns_finished += await queueRpc<number>('finish_idle_campaigns', {});
  return result;
}
