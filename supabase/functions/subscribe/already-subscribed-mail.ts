// The notice to an address that subscribes again while it is already confirmed (issue 21): its
// preferences link and, when the form asked for changes, a 7-day link applying exactly those.
// Like the confirmation, built only from what the database holds: the changes are named ("your
// name", list names), never quoted, so the form cannot mail a stranger text of its choosing.
import type { OutgoingMail } from '../_shared/mail.ts';
import { joinedNames } from '../../../lib/email-render/system-emails.ts';
import type { MailSettings } from '../_shared/subscriber-mail.ts';
import { systemMail } from '../_shared/system-mail.ts';
import { confirmUrl } from './confirmation-mail.ts';

export interface KnownSignup {
  kind: 'already_subscribed';
  subscriber_id: string;
  email: string;
  /** Every list the form chose: the change link's lists, named on the page once applied. */
  lists: string[];
  /** The lists the address is confirmed on now. */
  subscribed_names: string[];
  /** What the form asked for that is not already so; null when nothing. */
  changes: { name: boolean; attributes: boolean; list_names: string[] } | null;
  nonce: string | null;
  settings: MailSettings;
}

/** The changes as phrases ("subscribe you to A and B"), in the order the form has them. */
export function changeLines(changes: NonNullable<KnownSignup['changes']>): string[] {
  return [
    ...(changes.list_names.length ? [`subscribe you to ${joinedNames(changes.list_names)}`] : []),
    ...(changes.name ? ['change your name to the one entered in the form'] : []),
    ...(changes.attributes ? ['save the other details entered in the form'] : []),
  ];
}

/** The notice, in the team's wording (Settings → Emails) or the default. */
export function alreadySubscribedMail(known: KnownSignup, now = Date.now()): Promise<OutgoingMail> {
  const lines = known.changes && known.nonce ? changeLines(known.changes) : [];
  const apply = lines.length ? confirmUrl(known.subscriber_id, known.lists, known.nonce!, now) : '';
  return systemMail('already_subscribed', {
    settings: known.settings,
    to: known.email,
    subscriberId: known.subscriber_id,
    // No link is no variable: in Liquid an empty string is true, so `{% if apply_url %}` needs nil.
    values: {
      lists: joinedNames(known.subscribed_names),
      ...(apply ? { apply_url: apply } : {}),
      changes: lines,
    },
  });
}
