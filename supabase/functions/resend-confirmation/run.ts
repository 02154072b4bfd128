// One run of a send: takes the send (a lease), then batch after batch takes the next addresses
// (for a confirmation send rate-limited per address and given fresh confirm links by SQL), mails
// each at the send rate campaigns share (send-rate.ts) with the subscribe function's own
// confirmation email, and counts what went out. (A Let in's welcome was a send of kind 'welcome'
// here until issue 24 made the welcome an automation: none is queued any more, and the migration
// turned the unfinished ones into enrolments; one found anyway fails, mailing nobody.) A run stops after its time or message budget and gives the send back; the
// caller then starts a fresh run, so no request outlives the platform's limits.
import { rpc } from '../_shared/db.ts';
import { AppError } from '../_shared/errors.ts';
import { sendMail } from '../_shared/mail.ts';
import { sendRate, takeSendSlot } from '../_shared/send-rate.ts';
import type { MailSettings } from '../_shared/subscriber-mail.ts';
import type { OutgoingMail } from '../_shared/mail.ts';
import { confirmationMail } from '../subscribe/confirmation-mail.ts';

/** Addresses taken at once: a few seconds of the default rate (10 a second). */
const BATCH = 25;
const LEASE_SECONDS = 60;

export interface RunLimits {
  budgetMs: number;
  maxMessages: number;
}

interface BatchMail {
  subscriber_id: string;
  email: string;
  list_names: string[];
  /** A confirmation send's: the pending lists and the fresh confirm nonce. */
  lists?: string[];
  nonce?: string;
}

interface Batch {
  mails: BatchMail[];
  settings: MailSettings;
  remaining: number;
}

type SendKind = 'confirmation' | 'welcome';

function mailFor(kind: SendKind, mail: BatchMail, settings: MailSettings): Promise<OutgoingMail> {
  if (kind === 'welcome')
    return Promise.reject(new Error('the welcome is an automation now (issue 24)'));
  if (!mail.lists || !mail.nonce) throw new Error('a confirmation without its lists and nonce');
  return confirmationMail({
    kind: 'confirm',
    subscriber_id: mail.subscriber_id,
    email: mail.email,
    lists: mail.lists,
    list_names: mail.list_names,
    nonce: mail.nonce,
    settings,
  });
}

export type RunOutcome = 'done' | 'more' | 'busy';

export async function runSend(sendId: string, limits: RunLimits): Promise<RunOutcome> {
  const token = crypto.randomUUID();
  const held = await rpc<{ id: string | null; kind: SendKind } | null>('lease_confirmation_send', {
    p_send: sendId,
    p_token: token,
    p_lease_seconds: LEASE_SECONDS,
  });
  if (!held?.id) return 'busy';
  const deadline = Date.now() + limits.budgetMs;
  const rate = sendRate();
  let mailed = 0;
  for (;;) {
    const batch = await rpc<Batch>('take_confirmation_batch', {
      p_send: sendId,
      p_token: token,
      p_limit: Math.min(BATCH, limits.maxMessages - mailed),
      p_lease_seconds: LEASE_SECONDS,
    });
    let sent = 0;
    let failed = 0;
    await Promise.all(
      batch.mails.map(async (mail) => {
        await takeSendSlot(rate);
        try {
          await sendMail(await mailFor(held.kind, mail, batch.settings));
          sent += 1;
        } catch (error) {
          // Not mailed; for a confirmation the admin may send again (the page shows it as failed).
          failed += 1;
          console.warn(`${held.kind} to ${mail.subscriber_id} failed`, error);
        }
      }),
    );
    mailed += batch.mails.length;
    const done = batch.remaining === 0;
    const release = !done && (Date.now() >= deadline || mailed >= limits.maxMessages);
    await rpc('record_confirmation_batch', {
      p_send: sendId,
      p_token: token,
      p_sent: sent,
      p_failed: failed,
      p_done: done,
      p_release: release,
    }).catch((error) => {
      // Our lease ran out and another run holds the send: it goes on, and counts from there.
      if (error instanceof AppError && error.code === 'conflict') return null;
      throw error;
    });
    if (done) return 'done';
    if (release) return 'more';
  }
}
