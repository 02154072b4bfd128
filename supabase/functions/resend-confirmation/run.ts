// One run of a confirmation send: takes the send (a lease), then batch after batch takes the next
// addresses (rate-limited per address and given fresh confirm links by SQL), mails each at the send
// rate campaigns share (send-rate.ts) with the subscribe function's own confirmation email, and
// counts what went out. A run stops after its time or message budget and gives the send back; the
// caller then starts a fresh run, so no request outlives the platform's limits.
import { rpc } from '../_shared/db.ts';
import { AppError } from '../_shared/errors.ts';
import { sendMail } from '../_shared/mail.ts';
import { sendRate, takeSendSlot } from '../_shared/send-rate.ts';
import type { MailSettings } from '../_shared/subscriber-mail.ts';
import { confirmationMail } from '../subscribe/confirmation-mail.ts';

/** Addresses taken at once: a few seconds of the default rate (10 a second). */
const BATCH = 25;
const LEASE_SECONDS = 60;

export interface RunLimits {
  budgetMs: number;
  maxMessages: number;
}

interface Batch {
  mails: {
    subscriber_id: string;
    email: string;
    lists: string[];
    list_names: string[];
    nonce: string;
  }[];
  settings: MailSettings;
  remaining: number;
}

export type RunOutcome = 'done' | 'more' | 'busy';

export async function runSend(sendId: string, limits: RunLimits): Promise<RunOutcome> {
  const token = crypto.randomUUID();
  const held = await rpc<{ id: string | null } | null>('lease_confirmation_send', {
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
          await sendMail(
            await confirmationMail({ kind: 'confirm', ...mail, settings: batch.settings }),
          );
          sent += 1;
        } catch (error) {
          // The link is not mailed; the admin may send again (the page shows it as failed).
          failed += 1;
          console.warn(`confirmation to ${mail.subscriber_id} failed`, error);
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
