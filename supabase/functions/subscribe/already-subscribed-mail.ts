// The notice to an address that subscribes again while it is already confirmed (issue 21): its
// preferences link and, when the form asked for changes, a 7-day link applying exactly those.
// Like the confirmation, built only from what the database holds: the changes are named ("your
// name", list names), never quoted, so the form cannot mail a stranger text of its choosing.
import type { OutgoingMail } from '../_shared/mail.ts';
import {
  buttonHtml,
  escapeHtml,
  paragraphsHtml,
  subscriberLinks,
  subscriberMail,
  type MailSettings,
} from '../_shared/subscriber-mail.ts';
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

/** "A", "A and B", "A, B and C". */
function joined(names: string[]): string {
  return names.length <= 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The changes as a list of plain sentences, in the order the form has them. */
export function changeLines(changes: NonNullable<KnownSignup['changes']>): string[] {
  return [
    ...(changes.list_names.length ? [`Subscribe you to ${joined(changes.list_names)}`] : []),
    ...(changes.name ? ['Change your name to the one entered in the form'] : []),
    ...(changes.attributes ? ['Save the other details entered in the form'] : []),
  ];
}

export function alreadySubscribedMail(known: KnownSignup, now = Date.now()): OutgoingMail {
  const site = known.settings.site_name;
  const { preferences } = subscriberLinks(known.subscriber_id);
  const intro =
    `This address is already subscribed to ${joined(known.subscribed_names)} from ${site}, ` +
    'and someone, probably you, just signed up with it again.';
  const manage = 'To choose your lists or change your name, open your preferences:';
  const lines = known.changes && known.nonce ? changeLines(known.changes) : [];
  const apply = lines.length
    ? confirmUrl(known.subscriber_id, known.lists, known.nonce!, now)
    : null;
  const asked = 'The form also asked to:';
  const outro =
    'This link works for 7 days and applies exactly what the form asked. If it was not you, ' +
    'ignore this email: nothing changes.';
  const text = [
    intro,
    `${manage}\n${preferences}`,
    ...(apply
      ? [
          `${asked}\n${lines.map((l) => `- ${l}`).join('\n')}`,
          `Apply these changes:\n${apply}`,
          outro,
        ]
      : []),
  ].join('\n\n');
  const listHtml = `<ul style="margin:0 0 16px;padding-left:20px">${lines
    .map((l) => `<li>${escapeHtml(l)}</li>`)
    .join('')}</ul>`;
  return subscriberMail({
    settings: known.settings,
    to: known.email,
    subscriberId: known.subscriber_id,
    subject: `You are already subscribed to ${site}`,
    preheader: apply
      ? 'Apply the changes you asked for, or manage your preferences.'
      : 'Manage your preferences any time.',
    text: `${text}\n`,
    bodyHtml:
      `<h1 style="font-size:22px;margin:0 0 16px">You are already subscribed</h1>` +
      paragraphsHtml(intro) +
      (apply
        ? paragraphsHtml(asked) +
          listHtml +
          buttonHtml('Apply these changes', apply) +
          paragraphsHtml(outro)
        : '') +
      paragraphsHtml(manage) +
      (apply
        ? `<p style="margin:0 0 16px"><a href="${escapeHtml(preferences)}" style="color:#1f4fd1">Manage your preferences</a></p>`
        : buttonHtml('Manage your preferences', preferences)),
  });
}
