// Sending claimed deliveries for one process-queue run (SPEC §9): a fixed number of lanes take rows
// from claimed batches, render and send each message at the shared rate and wait for its result to
// be written; the next batch is claimed while the current one still keeps every lane busy.
import { adminClient } from './db.ts';
import { AppError } from './errors.ts';
import { sendMail, TemporaryMailError } from './mail.ts';
import {
  campaignMail,
  campaignMessageId,
  loadCampaignContext,
  type CampaignContext,
} from './campaign-mail.ts';
import { sendRate, takeSendSlot } from './send-rate.ts';
import { sendSlots } from './send-slots.ts';
import { queueRpc, recordResult, type Outcome } from './delivery-results.ts';
import type { MailSettings } from './subscriber-mail.ts';
import { waitlistStandings } from './campaign-waitlist.ts';
import type { ScopeWaitlist } from '../../../lib/email-render/index.ts';
import type { QueueOptions, QueueResult } from './queue-run.ts';

export const BATCH_SIZE = 100;

/**
 * Messages rendered and handed to the mail transport at once by this process, across all its runs
 * (each has its own lanes, and several run side by side): twice the SMTP pool, so a connection that
 * frees up always finds a message ready, while the other lanes wait unrendered instead of holding
 * hundreds of finished messages in the pool's queue, which the garbage collector then copies from
 * one generation to the next (on a 10,000-recipient send, a sixth less Deno CPU per message, and less than half the GC threads’ time).
 */
const withSendSlot = sendSlots(2 * Number(Deno.env.get('POSTBOX_SMTP_MAX_CONNECTIONS') ?? 16));

interface Delivery {
  campaign_id: string;
  subscriber_id: string;
  attempts: number;
}

interface Attempt {
  outcome: Outcome;
  errorText: string | null;
  messageId: string | null;
  sentAt: string | null;
}

interface Recipient {
  id: string;
  email: string;
  name: string | null;
  attributes: Record<string, unknown> | null;
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

/** One claimed batch: its claim token, what its heartbeat last learnt, and its rows not yet done. */
class Batch {
  held: Set<string>;
  stopped = new Set<string>();
  lastBeat = Date.now();
  /** Rows taken by no lane yet, or sending; at 0 the batch is done. */
  open: number;
  /** True once a row was left unsent (stopped, reclaimed, time up): release its claims. */
  leftover = false;
  private beating: Promise<void> | null = null;

  /** Waitlist merge tags by `campaign/subscriber`, read only for campaigns that use them. */
  standings = new Map<string, ScopeWaitlist>();

  constructor(
    readonly token: string,
    readonly rows: Delivery[],
    readonly recipients: Map<string, Recipient>,
  ) {
    this.held = new Set(rows.map(key));
    this.open = rows.length;
  }

  /** Heartbeat about once a second: keeps the claim fresh and learns of a pause or cancel. */
  async beatIfDue(): Promise<void> {
    if (Date.now() - this.lastBeat < 1000) return;
    this.beating ??= queueRpc<
      { campaign_id: string; subscriber_id: string; campaign_status: string }[]
    >('renew_delivery_claims', { p_claim_token: this.token })
      .then((renewed) => {
        this.held = new Set(renewed.map(key));
        for (const r of renewed)
          if (r.campaign_status !== 'sending') this.stopped.add(r.campaign_id);
        this.lastBeat = Date.now();
      })
      .finally(() => (this.beating = null));
    await this.beating;
  }

  mayStillSend(row: Delivery): boolean {
    return !this.stopped.has(row.campaign_id) && this.held.has(key(row));
  }
}

const key = (row: { campaign_id: string; subscriber_id: string }) =>
  `${row.campaign_id}/${row.subscriber_id}`;

/**
 * Sends claimed rows through a fixed number of lanes, claiming the next batch while the current one
 * still has rows for every lane, so no lane waits for a claim (or the recipient read after it).
 */
export class Worker {
  abandoned = false;
  private contexts = new Map<string, CampaignContext>();
  private rate = sendRate();
  private attempted = 0;
  private queue: { row: Delivery; batch: Batch }[] = [];
  private claiming: Promise<void> | null = null;
  /** No more claims: the queue had nothing due, or maxMessages were claimed. */
  private exhausted = false;
  private batches = new Set<Batch>();
  private releases: Promise<unknown>[] = [];
  private failure: unknown = null;
  private lanes: number;
  constructor(
    private options: QueueOptions,
    private result: QueueResult,
    private deadline: number,
    private settings: MailSettings,
  ) {
    // With a rate limit each send holds a reserved slot while it waits for it: no more lanes than
    // half a second of the rate needs, so a pause or the end of the budget is not overrun by seconds.
    this.lanes =
      this.rate === null
        ? options.concurrency
        : Math.min(options.concurrency, Math.max(1, Math.ceil(this.rate / 2)));
  }

  private async context(campaignId: string): Promise<CampaignContext> {
    let context = this.contexts.get(campaignId);
    if (!context) {
      context = await loadCampaignContext(campaignId, this.settings);
      this.contexts.set(campaignId, context);
    }
    return context;
  }

  async run(): Promise<void> {
    try {
      await Promise.all(Array.from({ length: this.lanes }, () => this.lane()));
    } finally {
      await this.claiming?.catch(() => undefined);
      // Unsent rows (stopped campaign, time up) go back to the queue — unless we play dead.
      if (!this.abandoned) {
        for (const batch of this.batches) this.release(batch);
        await Promise.all(this.releases);
      }
    }
    if (this.failure !== null) throw this.failure;
  }

  /** Starts the next claim when the queue runs low; resolves when it is in (null: none to wait for). */
  private refill(): Promise<void> | null {
    if (this.claiming) return this.claiming;
    if (this.exhausted || this.abandoned || Date.now() >= this.deadline) return null;
    if (this.queue.length >= this.lanes) return null;
    this.claiming = this.claim()
      .catch((error) => {
        this.failure ??= error;
        this.exhausted = true;
      })
      .finally(() => (this.claiming = null));
    return this.claiming;
  }

  private async claim(): Promise<void> {
    const token = crypto.randomUUID();
    const rows = await queueRpc<Delivery[]>('claim_delivery_batch', {
      p_limit: Math.min(BATCH_SIZE, this.options.maxMessages - this.result.claimed),
      p_claim_timeout: `${this.options.claimTimeoutSeconds} seconds`,
      p_claim_token: token,
    });
    if (rows.length === 0) {
      this.exhausted = true;
      return;
    }
    this.result.claimed += rows.length;
    const batch = new Batch(token, rows, new Map());
    this.batches.add(batch);
    // Read now, not at the start of the send: whoever was blocklisted or unsubscribed since then
    // gets nothing (SPEC §4: a blocklisted address is never sent to).
    const { data, error } = await adminClient()
      .from('subscribers')
      .select('id, email, name, attributes, status, subscriptions(list_id, status)')
      .in('id', [...new Set(rows.map((r) => r.subscriber_id))]);
    if (error) throw new AppError('internal');
    for (const s of data ?? []) batch.recipients.set(s.id as string, s as Recipient);
    for (const campaignId of new Set(rows.map((r) => r.campaign_id))) {
      const context = await this.context(campaignId);
      if (context.compiled.usesWaitlist) {
        const ids = rows.filter((r) => r.campaign_id === campaignId).map((r) => r.subscriber_id);
        for (const [id, standing] of await waitlistStandings(campaignId, ids))
          batch.standings.set(`${campaignId}/${id}`, standing);
      }
    }
    for (const row of rows) this.queue.push({ row, batch });
    if (this.result.claimed >= this.options.maxMessages) {
      // The last batch of this run: its successor starts now, while these rows are still sent.
      this.exhausted = true;
      this.result.more = true;
      this.options.onMore?.();
    }
  }

  private async lane(): Promise<void> {
    for (;;) {
      if (this.abandoned || this.failure !== null || Date.now() >= this.deadline) return;
      const next = this.queue.shift();
      if (!next) {
        const claiming = this.refill();
        if (!claiming) return;
        await claiming;
        continue;
      }
      void this.refill(); // the next batch, while this one still keeps the lanes busy
      const { row, batch } = next;
      // Checked once the lane has its slot (which may take a while on a busy process), so a pause,
      // a lost claim or the end of the run's time that came meanwhile still stops the message.
      const attempt = await withSendSlot(async () => {
        if (this.abandoned || Date.now() >= this.deadline) return null;
        await batch.beatIfDue();
        return batch.mayStillSend(row) ? await this.attempt(row, batch) : null;
      });
      if (attempt) {
        await this.record(row, batch, attempt);
        if (
          this.options.abandonAfter !== undefined &&
          ++this.attempted >= this.options.abandonAfter
        )
          this.abandoned = true;
      } else batch.leftover = true;
      if (--batch.open === 0 && !this.abandoned) {
        this.batches.delete(batch);
        if (batch.leftover) this.release(batch);
      }
    }
  }

  private release(batch: Batch): void {
    this.batches.delete(batch);
    this.releases.push(
      queueRpc<number>('release_delivery_claims', { p_claim_token: batch.token }).catch((e) => {
        console.error('releasing claims failed (they return after the claim timeout)', e);
      }),
    );
  }

  /** Renders and sends one message; what became of it, to be recorded. */
  private async attempt(row: Delivery, batch: Batch): Promise<Attempt> {
    const context = await this.context(row.campaign_id);
    const recipient = batch.recipients.get(row.subscriber_id);
    let outcome: Outcome = 'sent';
    let errorText: string | null = null;
    let messageId: string | null = null;
    let sentAt: string | null = null;
    try {
      const skip = skipReason(context, recipient);
      if (skip) throw new Error(skip);
      const mail = campaignMail(context, recipient!, { waitlist: batch.standings.get(key(row)) });
      await takeSendSlot(this.rate);
      await sendMail(mail);
      sentAt = new Date().toISOString();
      messageId = campaignMessageId(context, row.subscriber_id);
    } catch (e) {
      outcome = e instanceof TemporaryMailError ? 'deferred' : 'failed';
      errorText = e instanceof Error ? e.message : String(e);
      console.warn(`delivery ${row.campaign_id}/${row.subscriber_id} ${outcome}: ${errorText}`);
    }
    return { outcome, errorText, messageId, sentAt };
  }

  private async record(row: Delivery, batch: Batch, attempt: Attempt): Promise<void> {
    const { outcome, errorText, messageId, sentAt } = attempt;
    // Waits until the result is written, so a run never has more sent-but-unrecorded messages than
    // sends in flight (what a crash could make arrive twice).
    const recorded = await recordResult({
      campaign_id: row.campaign_id,
      subscriber_id: row.subscriber_id,
      claim_token: batch.token,
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
