// The process-queue worker (SPEC §9): starts due scheduled campaigns, then claims batches of 100,
// sends each message at the shared rate and records results in groups as they come. Many workers
// may run at the same time: claims use SKIP LOCKED and every write checks the worker's claim token.
import { adminClient, rpc } from './db.ts';
import { AppError } from './errors.ts';
import { sendMail, TemporaryMailError } from './mail.ts';
import {
  campaignMail,
  campaignMessageId,
  loadCampaignContext,
  loadMailSettings,
  type CampaignContext,
} from './campaign-mail.ts';
import { renderCampaignHtml } from './campaign-render.ts';
import { sendRate, takeSendSlot } from './send-rate.ts';
import { queueRpc, recorder, type Outcome } from './delivery-results.ts';
import type { MailSettings } from './subscriber-mail.ts';

export { MAX_ATTEMPTS } from './delivery-results.ts';
export const BATCH_SIZE = 100;

export interface QueueOptions {
  /** Stop claiming and sending after this long (the function answers within it). */
  budgetMs: number;
  /** Claims older than this return to the queue (SPEC §9: 10 minutes). */
  claimTimeoutSeconds: number;
  /** Messages in flight at once within this worker. */
  concurrency: number;
  /**
   * Stop claiming after this many messages: a run must stay within the platform's CPU limit per
   * request (2 s on hosted Supabase), so a fast queue is drained by successive runs instead.
   */
  maxMessages: number;
  /** Fault injection for tests: stop dead after this many sends, leaving the claim as a crash would. */
  abandonAfter?: number;
}

export interface QueueResult {
  claimed: number;
  sent: number;
  deferred: number;
  failed: number;
  campaigns_finished: number;
  /** True when the run stopped at maxMessages with work possibly left (the caller starts another). */
  more: boolean;
}

interface Delivery {
  campaign_id: string;
  subscriber_id: string;
  attempts: number;
}

interface Recipient {
  id: string;
  email: string;
  status: string;
  subscriptions: { list_id: string; status: string }[];
}

/** Why a recipient fixed at the start must not get the message now, or null. */
function skipReason(context: CampaignContext, recipient?: Recipient): string | null {
  if (!recipient) return 'The subscriber no longer exists.';
  if (recipient.status !== 'enabled') return 'The address is blocklisted.';
  const onList = recipient.subscriptions.some(
    (s) => s.status === 'confirmed' && context.listIds.includes(s.list_id),
  );
  return onList ? null : 'Unsubscribed before the message went out.';
}

/** Renders and starts a campaign (draft or scheduled); answers the recipient count. */
export async function startCampaign(campaignId: string, bodyMd: string): Promise<number> {
  return await rpc<number>('start_campaign_send', {
    p_campaign_id: campaignId,
    p_body_html: renderCampaignHtml(bodyMd),
  });
}

/** Scheduled campaigns whose time has come. A scheduled send with nobody to send to goes back to draft. */
async function startDueCampaigns(): Promise<void> {
  const { data, error } = await adminClient()
    .from('campaigns')
    .select('id, body_md')
    .eq('status', 'scheduled')
    .lte('scheduled_at', new Date().toISOString())
    .limit(20);
  if (error) throw new AppError('internal');
  for (const campaign of data ?? []) {
    try {
      await startCampaign(campaign.id, campaign.body_md);
    } catch (e) {
      // Another worker started it first (conflict), or nobody is left to send to.
      if (e instanceof AppError && e.code === 'no_recipients') {
        await rpc('campaign_action', { p_campaign_id: campaign.id, p_action: 'unschedule' });
        console.warn(`scheduled campaign ${campaign.id} had no recipients; back to draft`);
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
  while (Date.now() < deadline && !worker.abandoned) {
    if (result.sent + result.deferred + result.failed >= options.maxMessages) {
      result.more = true;
      break;
    }
    const token = crypto.randomUUID();
    const rows = await queueRpc<Delivery[]>('claim_delivery_batch', {
      p_limit: BATCH_SIZE,
      p_claim_timeout: `${options.claimTimeoutSeconds} seconds`,
      p_claim_token: token,
    });
    if (rows.length === 0) break;
    result.claimed += rows.length;
    await worker.sendBatch(rows, token);
  }
  if (!worker.abandoned)
    result.campaigns_finished += await queueRpc<number>('finish_idle_campaigns', {});
  return result;
}

class Worker {
  abandoned = false;
  private contexts = new Map<string, CampaignContext>();
  private rate = sendRate();
  private attempted = 0;

  constructor(
    private options: QueueOptions,
    private result: QueueResult,
    private deadline: number,
    private settings: MailSettings,
  ) {}

  private async context(campaignId: string): Promise<CampaignContext> {
    let context = this.contexts.get(campaignId);
    if (!context) {
      context = await loadCampaignContext(campaignId, this.settings);
      this.contexts.set(campaignId, context);
    }
    return context;
  }

  async sendBatch(rows: Delivery[], token: string): Promise<void> {
    const ids = [...new Set(rows.map((r) => r.subscriber_id))];
    // Read now, not at the start of the send: whoever was blocklisted or unsubscribed since then
    // gets nothing (SPEC §4: a blocklisted address is never sent to).
    const { data, error } = await adminClient()
      .from('subscribers')
      .select('id, email, status, subscriptions(list_id, status)')
      .in('id', ids);
    if (error) throw new AppError('internal');
    const recipients = new Map((data ?? []).map((s) => [s.id as string, s as Recipient]));
    for (const campaignId of new Set(rows.map((r) => r.campaign_id)))
      await this.context(campaignId);

    // Heartbeat about once a second: keeps the claim fresh and learns of a pause or cancel.
    let held = new Set(rows.map((r) => `${r.campaign_id}/${r.subscriber_id}`));
    const stopped = new Set<string>();
    let lastBeat = Date.now();
    let beating: Promise<void> | null = null;
    const beat = async () => {
      const renewed = await queueRpc<
        { campaign_id: string; subscriber_id: string; campaign_status: string }[]
      >('renew_delivery_claims', { p_claim_token: token });
      held = new Set(renewed.map((r) => `${r.campaign_id}/${r.subscriber_id}`));
      for (const r of renewed) if (r.campaign_status !== 'sending') stopped.add(r.campaign_id);
      lastBeat = Date.now();
    };

    let next = 0;
    const lane = async () => {
      for (;;) {
        if (this.abandoned || Date.now() >= this.deadline) return;
        if (Date.now() - lastBeat >= 1000) {
          beating ??= beat().finally(() => (beating = null));
          await beating;
        }
        const row = rows[next++];
        if (!row) return;
        if (stopped.has(row.campaign_id) || !held.has(`${row.campaign_id}/${row.subscriber_id}`))
          continue;
        await this.sendOne(row, token, recipients.get(row.subscriber_id));
        if (
          this.options.abandonAfter !== undefined &&
          ++this.attempted >= this.options.abandonAfter
        )
          this.abandoned = true;
      }
    };
    // With a rate limit each send holds a reserved slot while it waits for it: no more lanes than
    // half a second of the rate needs, so a pause or the end of the budget is not overrun by seconds.
    const lanes =
      this.rate === null
        ? this.options.concurrency
        : Math.min(this.options.concurrency, Math.max(1, Math.ceil(this.rate / 2)));
    await Promise.all(Array.from({ length: lanes }, lane));
    // Unsent rows (stopped campaign, time up) go back to the queue — unless we play dead.
    if (!this.abandoned)
      await queueRpc<number>('release_delivery_claims', { p_claim_token: token });
  }

  private async sendOne(row: Delivery, token: string, recipient?: Recipient): Promise<void> {
    const context = await this.context(row.campaign_id);
    let outcome: Outcome = 'sent';
    let errorText: string | null = null;
    let messageId: string | null = null;
    let sentAt: string | null = null;
    try {
      const skip = skipReason(context, recipient);
      if (skip) throw new Error(skip);
      const mail = await campaignMail(context, { id: row.subscriber_id, email: recipient!.email });
      await takeSendSlot(this.rate);
      await sendMail(mail);
      sentAt = new Date().toISOString();
      messageId = campaignMessageId(context, row.subscriber_id);
    } catch (e) {
      outcome = e instanceof TemporaryMailError ? 'deferred' : 'failed';
      errorText = e instanceof Error ? e.message : String(e);
      console.warn(`delivery ${row.campaign_id}/${row.subscriber_id} ${outcome}: ${errorText}`);
    }
    // Waits until the result is written, so a run never has more sent-but-unrecorded messages than
    // sends in flight (what a crash could make arrive twice).
    const recorded = await recorder.record({
      campaign_id: row.campaign_id,
      subscriber_id: row.subscriber_id,
      claim_token: token,
      outcome,
      message_id: messageId,
      error: errorText,
      sent_at: sentAt,
    });
    if (!recorded.outcome) {
      console.error(`delivery ${row.campaign_id}/${row.subscriber_id} was reclaimed while sending`);
      return;
    }
    this.result[recorded.outcome] += 1;
    if (recorded.finished) this.result.campaigns_finished += 1;
  }
}
