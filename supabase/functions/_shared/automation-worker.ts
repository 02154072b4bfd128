// The automation part of a process-queue run (issue 24): runs due non-email steps in SQL, then claims
// due email steps in batches of 100, sends each at the send rate shared with campaigns and records
// results in groups, only for rows its claim still holds (the same guarantee as deliveries).
import { adminClient } from './db.ts';
import { AppError } from './errors.ts';
import { sendMail, TemporaryMailError } from './mail.ts';
import { sendRate, takeSendSlot } from './send-rate.ts';
import { sendSlots } from './send-slots.ts';
import { queueRpc, MAX_ATTEMPTS } from './delivery-results.ts';
import { writeGroups } from './write-groups.ts';
import type { MailSettings } from './subscriber-mail.ts';
import type { QueueOptions } from './queue-run.ts';
import type { ScopeWaitlist } from '../../../lib/email-render/index.ts';
import {
  automationMail,
  automationMessageId,
  automationSkipReason,
  batchStandings,
  loadStepContext,
  standingFor,
  type AutomationRecipient,
  type AutomationStepContext,
} from './automation-mail.ts';

const BATCH_SIZE = 100;
/** A claimed row is sent only within this share of the claim timeout, so it is never reclaimed while sent. */
const CLAIM_SAFETY = 0.8;
const withSendSlot = sendSlots(2 * Number(Deno.env.get('POSTBOX_SMTP_MAX_CONNECTIONS') ?? 16));

export interface AutomationRunResult {
  advanced: number;
  claimed: number;
  sent: number;
  deferred: number;
  failed: number;
  skipped: number;
  more: boolean;
}

interface Claimed {
  automation_id: string;
  subscriber_id: string;
  step_id: string;
  round: number;
  attempts: number;
}

type Outcome = 'sent' | 'deferred' | 'failed' | 'skipped';

interface SendResult {
  automation_id: string;
  subscriber_id: string;
  claim_token: string;
  outcome: Outcome;
  message_id: string | null;
  error: string | null;
  sent_at: string | null;
}

/** Results written in groups shared by every run of this process (one round trip per group). */
const recordResult = writeGroups<SendResult, Outcome | null>(
  async (group) => {
    const recorded = await queueRpc<Record<string, Outcome>>('record_automation_sends', {
      p_results: group,
      p_max_attempts: MAX_ATTEMPTS,
    });
    return group.map((r) => recorded[`${r.automation_id}/${r.subscriber_id}`] ?? null);
  },
  { limit: 100, waitMs: 10 },
);

const keyOf = (r: { automation_id: string; subscriber_id: string }) =>
  `${r.automation_id}/${r.subscriber_id}`;

/**
 * A batch's claim, renewed about once a second while it sends (renew_automation_claims). A row is
 * sent only while the claim still holds it and was renewed within CLAIM_SAFETY of the claim timeout,
 * so no other run can have reclaimed it meanwhile.
 */
class Heartbeat {
  private held: Set<string>;
  private beating: Promise<void> | null = null;
  private lastBeat = Date.now();

  constructor(
    private token: string,
    rows: Claimed[],
    /** Until when the claim itself (before any renewal) is safely ours. */
    private validUntil: number,
    private timeoutSeconds: number,
  ) {
    this.held = new Set(rows.map(keyOf));
  }

  async holds(row: Claimed): Promise<boolean> {
    if (Date.now() - this.lastBeat >= 1000) {
      const started = Date.now();
      this.beating ??= queueRpc<{ automation_id: string; subscriber_id: string }[]>(
        'renew_automation_claims',
        { p_claim_token: this.token },
      )
        .then((renewed) => {
          this.held = new Set(renewed.map(keyOf));
          this.lastBeat = Date.now();
          this.validUntil = started + this.timeoutSeconds * 1000 * CLAIM_SAFETY;
        })
        .catch((e) => console.error('renewing automation claims failed', e))
        .finally(() => (this.beating = null));
      await this.beating;
    }
    return this.held.has(keyOf(row)) && Date.now() < this.validUntil;
  }
}

/**
 * A claimed batch with what its sends need: its recipients as they are now (read with the claim, so
 * the lanes never wait for it), its heartbeat, and how many of its rows are not done yet.
 */
class Batch {
  /** Rows taken by no lane yet, or sending; at 0 the batch is done. */
  open: number;
  /** True once a row was left unsent (claim lost, time up): its claims are released. */
  leftover = false;
  recipients = new Map<string, AutomationRecipient>();
  /** Waitlist merge tags of the steps that use them (automation-mail.ts). */
  standings = new Map<string, ScopeWaitlist>();
  readonly heartbeat: Heartbeat;

  constructor(
    readonly token: string,
    readonly rows: Claimed[],
    claimedBy: number,
    timeoutSeconds: number,
  ) {
    this.open = rows.length;
    this.heartbeat = new Heartbeat(token, rows, claimedBy, timeoutSeconds);
  }
}

/**
 * Sends due email steps through a fixed number of lanes, as the campaign worker does
 * (campaign-worker.ts): the lanes take rows from a queue fed by claims of 100, and the next claim
 * (with its recipients read) is made while the current batch still has a row for every lane, so no
 * lane waits between batches for the slowest send of the last one, its recording or the next read.
 */
export class AutomationWorker {
  abandoned = false;
  private rate = sendRate();
  private attempted = 0;
  private contexts = new Map<string, Promise<AutomationStepContext>>();
  private queue: { row: Claimed; batch: Batch }[] = [];
  private claiming: Promise<void> | null = null;
  /** No more claims: nothing was due, time is up, or maxMessages were claimed. */
  private exhausted = false;
  /** Claimed batches with rows not done: released at the end unless the run plays dead. */
  private batches = new Set<Batch>();
  private releases: Promise<unknown>[] = [];
  private failure: unknown = null;
  readonly result: AutomationRunResult = {
    advanced: 0,
    claimed: 0,
    sent: 0,
    deferred: 0,
    failed: 0,
    skipped: 0,
    more: false,
  };

  constructor(
    private options: QueueOptions,
    private deadline: number,
    private settings: MailSettings,
  ) {}

  private get lanes(): number {
    const { concurrency } = this.options;
    return this.rate === null
      ? concurrency
      : Math.min(concurrency, Math.max(1, Math.ceil(this.rate / 2)));
  }

  /**
   * Runs the due non-email steps and claims the first batch of email steps. process-queue awaits
   * this before the campaign queue starts, so an idle automation queue costs campaigns none of
   * their budget (on PGlite every query waits for the one before).
   */
  async start(): Promise<void> {
    this.result.advanced += await queueRpc<number>('advance_automations', { p_limit: 1000 });
    await this.claim(Math.min(BATCH_SIZE, this.options.maxMessages));
  }

  /** Sends the first batch and claims more until nothing is due, time is up or maxMessages are claimed. */
  async run(): Promise<AutomationRunResult> {
    try {
      if (this.queue.length > 0)
        await Promise.all(
          Array.from({ length: Math.min(this.lanes, this.options.maxMessages) }, () => this.lane()),
        );
    } finally {
      await this.claiming?.catch(() => undefined);
      // Unsent rows (claim lost, time up) go back to the queue — unless the run plays dead, when
      // every claim stays as a crash leaves it.
      if (!this.abandoned) {
        for (const batch of this.batches) this.release(batch);
        await Promise.all(this.releases);
      }
    }
    if (this.failure !== null) throw this.failure;
    return this.result;
  }

  /** Starts the next claim when the queue runs low; resolves when it is in (null: none to wait for). */
  private refill(): Promise<void> | null {
    if (this.claiming) return this.claiming;
    if (this.exhausted || this.abandoned || Date.now() >= this.deadline) return null;
    if (this.queue.length >= this.lanes) return null;
    const room = this.options.maxMessages - this.result.claimed;
    if (room <= 0) {
      this.exhausted = true;
      this.result.more = true;
      this.options.onMore?.();
      return null;
    }
    this.claiming = this.claim(Math.min(BATCH_SIZE, room))
      .catch((error) => {
        this.failure ??= error;
        this.exhausted = true;
      })
      .finally(() => (this.claiming = null));
    return this.claiming;
  }

  /** Claims up to `limit` due email steps and reads their recipients; queues them for the lanes. */
  private async claim(limit: number): Promise<void> {
    const token = crypto.randomUUID();
    const claimedBy = Date.now() + this.options.claimTimeoutSeconds * 1000 * CLAIM_SAFETY;
    const rows = await queueRpc<Claimed[]>('claim_automation_batch', {
      p_limit: limit,
      p_claim_timeout: `${this.options.claimTimeoutSeconds} seconds`,
      p_claim_token: token,
    });
    this.result.claimed += rows.length;
    if (rows.length === 0) {
      this.exhausted = true;
      return;
    }
    const batch = new Batch(token, rows, claimedBy, this.options.claimTimeoutSeconds);
    this.batches.add(batch); // from here on released at the end, even if the read below fails
    // Read now: whoever was blocklisted or unsubscribed since they were enrolled gets nothing.
    const { data, error } = await adminClient()
      .from('subscribers')
      .select('id, email, name, attributes, status, subscriptions(list_id, status)')
      .in('id', [...new Set(rows.map((r) => r.subscriber_id))]);
    if (error) throw new AppError('internal');
    for (const s of data ?? []) batch.recipients.set(s.id as string, s as AutomationRecipient);
    batch.standings = await batchStandings(rows, (id) => this.context(id));
    for (const row of rows) this.queue.push({ row, batch });
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
      const sent = await withSendSlot(async () => {
        if (this.abandoned || Date.now() >= this.deadline) return null;
        if (!(await batch.heartbeat.holds(row))) return null;
        return await this.attempt(row, batch);
      });
      if (sent) {
        const recorded = await recordResult(sent);
        if (recorded === null)
          console.error(
            `automation send ${sent.automation_id}/${sent.subscriber_id} was reclaimed`,
          );
        else this.result[recorded] += 1;
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
      queueRpc<number>('release_automation_claims', { p_claim_token: batch.token }).catch((e) =>
        console.error(
          'releasing automation claims failed (they return after the claim timeout)',
          e,
        ),
      ),
    );
  }

  private context(stepId: string): Promise<AutomationStepContext> {
    let context = this.contexts.get(stepId);
    if (!context) {
      context = loadStepContext(stepId, this.settings);
      this.contexts.set(stepId, context);
    }
    return context;
  }

  private async attempt(row: Claimed, batch: Batch): Promise<SendResult> {
    const recipient = batch.recipients.get(row.subscriber_id);
    const result: SendResult = {
      automation_id: row.automation_id,
      subscriber_id: row.subscriber_id,
      claim_token: batch.token,
      outcome: 'sent',
      message_id: null,
      error: null,
      sent_at: null,
    };
    let context: AutomationStepContext;
    try {
      context = await this.context(row.step_id);
    } catch (e) {
      // The step's templates do not compile: its sends fail with the reason, the others go on.
      return { ...result, outcome: 'failed', error: e instanceof Error ? e.message : String(e) };
    }
    const skip = automationSkipReason(context, recipient);
    if (skip) return { ...result, outcome: 'skipped', error: skip };
    try {
      const mail = automationMail(
        context,
        recipient!,
        row.round,
        standingFor(context, row.subscriber_id, batch.standings),
      );
      await takeSendSlot(this.rate);
      await sendMail(mail);
      result.sent_at = new Date().toISOString();
      result.message_id = automationMessageId(context, row.subscriber_id, row.round);
    } catch (e) {
      result.outcome = e instanceof TemporaryMailError ? 'deferred' : 'failed';
      result.error = e instanceof Error ? e.message : String(e);
      console.warn(
        `automation send ${row.automation_id}/${row.subscriber_id} ${result.outcome}: ${result.error}`,
      );
    }
    return result;
  }
}
