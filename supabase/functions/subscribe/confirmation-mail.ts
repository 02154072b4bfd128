// The double opt-in email (its wording: lib/email-render/system-emails.ts). Built only from what the database holds (site name, list names, the
// address): nothing a visitor typed besides the address, so the form cannot be used to mail text
// of someone else's choosing to a stranger. For a known address its link also applies what the
// form submitted (name, attributes), which the email does not repeat for the same reason.
import { env } from '../_shared/env.ts';
import type { OutgoingMail } from '../_shared/mail.ts';
import { joinedNames } from '../../../lib/email-render/system-emails.ts';
import type { MailSettings } from '../_shared/subscriber-mail.ts';
import { systemMail } from '../_shared/system-mail.ts';
import { CONFIRM_LIFETIME_SECONDS, signToken } from '../_shared/tokens.ts';

export interface PendingSignup {
  kind: 'confirm';
  subscriber_id: string;
  email: string;
  lists: string[];
  list_names: string[];
  nonce: string;
  settings: MailSettings;
}

/**
 * The 7-day, single-use confirm link: confirms `lists` and applies the change set stored with
 * `nonce` (a known address's submission). The already-subscribed notice uses it too.
 */
export function confirmUrl(
  subscriberId: string,
  lists: string[],
  nonce: string,
  now = Date.now(),
): string {
  const token = signToken({
    p: 'confirm',
    s: subscriberId,
    l: lists,
    e: Math.floor(now / 1000) + CONFIRM_LIFETIME_SECONDS,
    n: nonce,
  });
  return `${env.siteUrl()}/confirm/?token=${token}`;
}

/** The confirmation, in the team's wording (Settings → Emails) or the default. */
export function confirmationMail(signup: PendingSignup, now = Date.now()): Promise<OutgoingMail> {
  return systemMail('confirmation', {
    settings: signup.settings,
    to: signup.email,
    subscriberId: signup.subscriber_id,
    values: {
      lists: joinedNames(signup.list_names),
      confirm_url: confirmUrl(signup.subscriber_id, signup.lists, signup.nonce, now),
    },
  });
}
