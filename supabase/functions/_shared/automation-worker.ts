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

  async run(): Promise<AutomationRunResult> {
    this.result.advanced += await queueRpc<number>('advance_automations', { p_limit: 1000 });
    while (!this.abandoned && Date.now() < this.deadline) {
      const room = this.options.maxMessages - this.result.claimed;
      if (room <= 0) {
        this.result.more = true;
        this.options.onMore?.();
        break;
      }
      if (!(await this.batch(Math.min(BATCH_SIZE, room)))) break;
    }
    return this.result;
  }

  /** Claims and sends one batch; false when nothing was due. */
  private async batch(limit: number): Promise<boolean> {
    const token = crypto.randomUUID();
    const claimedBy = Date.now() + this.options.claimTimeoutSeconds * 1000 * CLAIM_SAFETY;
    const rows = await queueRpc<Claimed[]>('claim_automation_batch', {
      p_limit: limit,
      p_claim_timeout: `${this.options.claimTimeoutSeconds} seconds`,
      p_claim_token: token,
    });
    if (rows.length === 0) return false;
    this.result.claimed += rows.length;
    // Read now: whoever was blocklisted or unsubscribed since they were enrolled gets nothing.
    const { data, error } = await adminClient()
      .from('subscribers')
      .select('id, email, name, attributes, status, subscriptions(list_id, status)')
      .in('id', [...new Set(rows.map((r) => r.subscriber_id))]);
    if (error) throw new AppError('internal');
    const recipients = new Map((data ?? []).map((s) => [s.id as string, s as AutomationRecipient]));
    let leftover = false;
    let next = 0;
    const lane = async () => {
      for (let row = rows[next++]; row; row = rows[next++]) {
        const sent = await withSendSlot(async () => {
          if (this.abandoned || Date.now() >= Math.min(this.deadline, claimedBy)) return null;
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
    if (this.abandoned) return false; // playing dead: the claims stay, as a crash leaves them
    if (leftover)
      await queueRpc<number>('release_automation_claims', { p_claim_token: token }).catch((e) =>
        console.error(
          'releasing automation claims failed (they return after the claim timeout)',
          e,
        ),
      );
    return true;
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
