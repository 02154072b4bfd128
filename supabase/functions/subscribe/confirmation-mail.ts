// The double opt-in email. Built only from what the database holds (site name, list names, the
// address): nothing a visitor typed besides the address, so the form cannot be used to mail text
// of someone else's choosing to a stranger. For a known address its link also applies what the
// form submitted (name, attributes), which the email does not repeat for the same reason.
import { env } from '../_shared/env.ts';
import type { OutgoingMail } from '../_shared/mail.ts';
import {
  buttonHtml,
  escapeHtml,
  paragraphsHtml,
  subscriberMail,
  type MailSettings,
} from '../_shared/subscriber-mail.ts';
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

export function confirmationMail(signup: PendingSignup, now = Date.now()): OutgoingMail {
  const link = confirmUrl(signup.subscriber_id, signup.lists, signup.nonce, now);
  const site = signup.settings.site_name;
  const lists = signup.list_names.join(', ');
  const intro = `Please confirm that you want to receive ${lists} from ${site}.`;
  const outro =
    'The link works for 7 days. If you did not ask for this, ignore this email: ' +
    'you will not be subscribed and will not hear from us again.';
  return subscriberMail({
    settings: signup.settings,
    to: signup.email,
    subscriberId: signup.subscriber_id,
    subject: `Confirm your subscription to ${site}`,
    preheader: `One click to confirm ${lists}.`,
    text: `${intro}\n\nConfirm your subscription:\n${link}\n\n${outro}\n`,
    bodyHtml:
      `<h1 style="font-size:22px;margin:0 0 16px">Confirm your subscription</h1>` +
      paragraphsHtml(intro) +
      buttonHtml('Confirm subscription', link) +
      `<p style="margin:0 0 16px;font-size:14px;color:#555555">Or paste this link into your browser:<br>` +
      `<a href="${escapeHtml(link)}" style="color:#1f4fd1;word-break:break-all">${escapeHtml(link)}</a></p>` +
      paragraphsHtml(outro),
  });
}
