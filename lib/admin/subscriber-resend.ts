// Resending the confirmation email (issue 23): the call that starts a send for chosen subscribers
// or a rule set (resend-confirmation), the send's progress row, what the page says about it, and the
// "pending for at least N days" narrowing the bulk dialog adds to the page's rules.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Tables } from '../database.types';
import { isRecord, readFunctionResult, toFunctionQueryError } from '../functions';
import { unwrap } from '../use-query';
import type { RuleGroup } from './subscriber-rules';

export type ConfirmationSend = Pick<
  Tables<'confirmation_sends'>,
  'id' | 'status' | 'total' | 'sent' | 'failed' | 'limited' | 'skipped' | 'import_id' | 'kind'
>;

const SEND_COLUMNS = 'id,status,total,sent,failed,limited,skipped,import_id,kind';

export type ResendTarget = { subscriberIds: string[] } | { rules: RuleGroup };

function isSend(value: unknown): value is ConfirmationSend {
  return isRecord(value) && typeof value.id === 'string' && typeof value.status === 'string';
}

/** Starts a send (admins and owners); the function answers at once and mails in the background. */
export async function startResend(
  client: SupabaseClient,
  target: ResendTarget,
): Promise<ConfirmationSend> {
  const body =
    'subscriberIds' in target ? { subscriber_ids: target.subscriberIds } : { rules: target.rules };
  const outcome = await readFunctionResult(
    await client.functions.invoke('resend-confirmation', { body }),
    (data) => (isRecord(data) && isSend(data.send) ? data.send : null),
    {
      notDeployed: 'Resending is not available: the resend-confirmation function is not deployed.',
    },
  );
  if (!outcome.ok) throw toFunctionQueryError(outcome);
  return outcome.data;
}

export async function getSend(
  client: SupabaseClient,
  id: string,
): Promise<ConfirmationSend | null> {
  return unwrap(
    await client.from('confirmation_sends').select(SEND_COLUMNS).eq('id', id).maybeSingle(),
  ) as ConfirmationSend | null;
}

/** The send an import's option queued, or null (the option was off). */
export async function getImportSend(
  client: SupabaseClient,
  importId: string,
): Promise<ConfirmationSend | null> {
  return unwrap(
    await client
      .from('confirmation_sends')
      .select(SEND_COLUMNS)
      .eq('import_id', importId)
      .maybeSingle(),
  ) as ConfirmationSend | null;
}

/**
 * `rules` narrowed to enabled subscribers with a subscription pending for at least `days` days
 * (0: pending at all) — exactly those the send will mail, so the dialog's count is the real one.
 */
export function pendingRules(rules: RuleGroup, days: number): RuleGroup {
  const whole = Math.max(0, Math.floor(days));
  return {
    match: 'all',
    rules: [
      rules,
      { field: 'status', op: 'eq', value: 'enabled' },
      {
        field: 'subscription',
        op: 'has',
        value:
          whole > 0
            ? { status: 'pending', subscribed_before: { days_ago: whole } }
            : { status: 'pending' },
      },
    ],
  };
}

const count = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

export interface SendView {
  finished: boolean;
  /** 0–100 of the addresses handled (mailed, failed, over the limit or no longer pending). */
  percent: number;
  text: string;
  tone: 'success' | 'error' | 'info';
}

/** What the page says about a send, while it runs and once it is done. */
export function sendView(send: ConfirmationSend): SendView {
  const welcome = send.kind === 'welcome';
  if (send.status === 'waiting' || send.total === null) {
    return {
      finished: false,
      percent: 0,
      text: 'Confirmation emails go out when the import is done.',
      tone: 'info',
    };
  }
  const handled = send.sent + send.failed + send.limited + send.skipped;
  const total = send.total;
  const percent = total === 0 ? 100 : Math.min(100, Math.floor((handled / total) * 100));
  const finished = send.status === 'done';
  if (finished && total === 0) {
    return { finished, percent, text: 'Nobody to send to: none of them is pending.', tone: 'info' };
  }
  const notes = [
    send.limited
      ? `${count(send.limited, 'address', 'addresses')} had 5 emails in the last 10 minutes; try again later`
      : '',
    send.skipped
      ? `${count(send.skipped, 'subscriber')} ${welcome ? 'no longer on the list' : 'no longer pending'}`
      : '',
    send.failed ? `${count(send.failed, 'email')} could not be sent` : '',
  ].filter(Boolean);
  const what = welcome ? 'welcome' : 'confirmation';
  const head = finished
    ? `${welcome ? 'Welcome' : 'Confirmation'} email sent to ${count(send.sent, 'subscriber')}.`
    : `Sending ${what} emails: ${send.sent.toLocaleString('en')} of ${total.toLocaleString('en')} sent.`;
  return {
    finished,
    percent,
    text: notes.length ? `${head} ${notes.join('; ')}.` : head,
    tone: finished ? (send.sent === 0 ? 'error' : 'success') : 'info',
  };
}
