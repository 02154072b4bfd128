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
import {
  automationMail,
  automationMessageId,
  automationSkipReason,
  loadStepContext,
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

/** A claimed batch: its token, until when the claim is surely ours, and its rows. */
interface Batch {
  token: string;
  claimedBy: number;
  rows: Claimed[];
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

export class AutomationWorker {
  abandoned = false;
  private rate = sendRate();
  private attempted = 0;
  private contexts = new Map<string, Promise<AutomationStepContext>>();
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

  /** The first claim, made by start() before the campaign queue starts its clock. */
  private first: Batch | null = null;

  /**
   * Runs the due non-email steps and claims the first batch of email steps. process-queue awaits
   * this before the campaign queue starts, so an idle automation queue costs campaigns none of
   * their budget (on PGlite every query waits for the one before).
   */
  async start(): Promise<void> {
    this.result.advanced += await queueRpc<number>('advance_automations', { p_limit: 1000 });
    this.first = await this.claim(Math.min(BATCH_SIZE, this.options.maxMessages));
  }

  /** Sends the first batch and claims more until nothing is due, time is up or maxMessages are claimed. */
  async run(): Promise<AutomationRunResult> {
    let batch: Batch | null = this.first;
    this.first = null;
    while (batch && batch.rows.length > 0) {
      // The next batch is claimed (with its recipients read) while this one's last rows are sent,
      // so the lanes do not wait for a claim between batches.
      const ahead: { claim: Promise<Batch | null> | null } = { claim: null };
      const prefetch = () => (ahead.claim ??= this.nextBatch());
      await this.send(batch, prefetch);
      if (this.abandoned) {
        // Playing dead: a batch claimed ahead stays claimed, as after a crash.
        await ahead.claim?.catch(() => null);
        break;
      }
      batch = await prefetch();
    }
    return this.result;
  }

  /** Claims another batch, or null when time is up or this run has claimed maxMessages. */
  private async nextBatch(): Promise<Batch | null> {
    if (this.abandoned || Date.now() >= this.deadline) return null;
    const room = this.options.maxMessages - this.result.claimed;
    if (room <= 0) {
      this.result.more = true;
      this.options.onMore?.();
      return null;
    }
    return this.claim(Math.min(BATCH_SIZE, room));
  }

  private async claim(limit: number): Promise<Batch> {
    const token = crypto.randomUUID();
    const claimedBy = Date.now() + this.options.claimTimeoutSeconds * 1000 * CLAIM_SAFETY;
    const rows = await queueRpc<Claimed[]>('claim_automation_batch', {
      p_limit: limit,
      p_claim_timeout: `${this.options.claimTimeoutSeconds} seconds`,
      p_claim_token: token,
    });
    this.result.claimed += rows.length;
    return { token, claimedBy, rows };
  }

  /** Sends one claimed batch through the lanes; gives back what it did not send. */
  private async send({ token, claimedBy, rows }: Batch, prefetch: () => unknown): Promise<void> {
    // Read now: whoever was blocklisted or unsubscribed since they were enrolled gets nothing.
    const { data, error } = await adminClient()
      .from('subscribers')
      .select('id, email, name, attributes, status, subscriptions(list_id, status)')
      .in('id', [...new Set(rows.map((r) => r.subscriber_id))]);
    if (error) throw new AppError('internal');
    const recipients = new Map((data ?? []).map((s) => [s.id as string, s as AutomationRecipient]));
    let leftover = false;
    let next = 0;
    const claim = new Heartbeat(token, rows, claimedBy, this.options.claimTimeoutSeconds);
    const lane = async () => {
      for (let row = rows[next++]; row; row = rows[next++]) {
        if (rows.length - next < this.lanes && !this.abandoned) void prefetch();
        const sent = await withSendSlot(async () => {
          if (this.abandoned || Date.now() >= this.deadline) return null;
          if (!(await claim.holds(row))) return null;
          return await this.attempt(row, recipients.get(row.subscriber_id), token);
        });
        if (!sent) {
          leftover = true;
          continue;
        }
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
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.lanes, rows.length) }, lane));
    if (this.abandoned) return; // playing dead: the claims stay, as a crash leaves them
    if (leftover)
      await queueRpc<number>('release_automation_claims', { p_claim_token: token }).catch((e) =>
        console.error(
          'releasing automation claims failed (they return after the claim timeout)',
          e,
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

  private async attempt(
    row: Claimed,
    recipient: AutomationRecipient | undefined,
    token: string,
  ): Promise<SendResult> {
    const result: SendResult = {
      automation_id: row.automation_id,
      subscriber_id: row.subscriber_id,
      claim_token: token,
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
      const mail = automationMail(context, recipient!, row.round);
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
