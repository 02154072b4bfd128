// The note to someone who already has an account and was just added to the team: no invite link is
// needed, only where to sign in.
import { env } from '../_shared/env.ts';
import type { OutgoingMail } from '../_shared/mail.ts';
import {
  buttonHtml,
  escapeHtml,
  layoutHtml,
  paragraphsHtml,
  senderFields,
  type MailSettings,
} from '../_shared/subscriber-mail.ts';

export function addedToTeamMail(settings: MailSettings, to: string, role: string): OutgoingMail {
  const login = `${env.siteUrl()}/login/`;
  const site = settings.site_name;
  const intro = `You have been added to the team at ${site} as ${role}. Sign in with this address to get started.`;
  return {
    ...senderFields(settings),
    to,
    subject: `You have been added to the team at ${site}`,
    text: `${intro}\n\nSign in: ${login}\n`,
    html: layoutHtml({
      title: `You have been added to the team at ${site}`,
      bodyHtml:
        `<h1 style="font-size:22px;margin:0 0 16px">Welcome to the team at ${escapeHtml(site)}</h1>` +
        paragraphsHtml(intro) +
        buttonHtml('Sign in', login),
      footerHtml: escapeHtml(settings.postal_address),
    }),
  };
}
