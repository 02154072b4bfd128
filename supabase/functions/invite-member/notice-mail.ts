// The note to someone who already has an account and was just added to the team: no invite link is
// needed, only who added them, as what, and where to sign in. In the branded layout and the words
// of the Auth emails (_shared/auth-mail.ts), so it reads like the invite a new address gets.
import { authLayout, escapeHtml, ROLE_WORDS, type AuthMailSite } from '../_shared/auth-mail.ts';
import { env } from '../_shared/env.ts';
import type { OutgoingMail } from '../_shared/mail.ts';
import { senderFields, type MailSettings } from '../_shared/subscriber-mail.ts';
import { buttonHtml } from '../../../lib/email-render/body-styles.ts';
import { brandedLayout } from '../../../lib/email-render/layout.ts';

export function addedToTeamMail(
  settings: MailSettings & AuthMailSite,
  to: string,
  role: string,
  inviter: string | null,
): OutgoingMail {
  const login = `${env.siteUrl()}/login/`;
  const site = settings.site_name;
  const subject = `You have been added to the team at ${site}`;
  const heading = `Welcome to the team at ${site}`;
  const paragraphs = [
    `${inviter ?? 'An owner of the team'} added you to the team at ${site}, as ` +
      `${ROLE_WORDS[role] ?? role}.`,
    'Sign in with this address on the login page: we email you a link and a code, there is no ' +
      'password to remember.',
  ];
  const after = `If you did not expect this, tell ${inviter ?? 'the owner'}: they can remove you.`;
  const lines = [site, '', heading, '', ...paragraphs.flatMap((p) => [p, ''])];
  lines.push(`Sign in: ${login}`, '', after);
  if (settings.postal_address) lines.push('', '--', settings.postal_address);
  const paragraph = (text: string) => `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`;
  const bodyHtml =
    `<h1 style="margin:0 0 16px;font-size:24px;line-height:32px;font-weight:700">${escapeHtml(heading)}</h1>` +
    paragraphs.map(paragraph).join('') +
    buttonHtml(escapeHtml(login), 'Sign in', brandedLayout(settings).accent) +
    paragraph(after);
  return {
    ...senderFields(settings),
    to,
    subject,
    text: `${lines.join('\n')}\n`,
    html: authLayout(settings, { title: subject, preheader: paragraphs[0]!, bodyHtml }),
  };
}
