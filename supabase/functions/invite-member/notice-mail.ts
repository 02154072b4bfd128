// The note to someone who already has an account and was just added to the team: no invite link is
// needed, only who added them, as what, and where to sign in. Rendered as the Auth emails are
// (_shared/auth-mail.ts: the branded layout, the same shape and words), so it reads like the
// invite a new address gets.
import { renderAuthLetter, ROLE_WORDS, type AuthMailSite } from '../_shared/auth-mail.ts';
import juice from '../_shared/juice.ts';
import { env } from '../_shared/env.ts';
import type { OutgoingMail } from '../_shared/mail.ts';
import { senderFields, type MailSettings } from '../_shared/subscriber-mail.ts';

export function addedToTeamMail(
  settings: MailSettings & AuthMailSite,
  to: string,
  role: string,
  inviter: string | null,
): OutgoingMail {
  const site = settings.site_name;
  const letter = renderAuthLetter(
    juice,
    settings,
    {
      subject: `You have been added to the team at ${site}`,
      heading: `Welcome to the team at ${site}`,
      intro: [
        `${inviter ?? 'An owner of the team'} added you to the team at ${site}, as ` +
          `${ROLE_WORDS[role] ?? role}.`,
        'Sign in with this address on the login page: we email you a link and a code, there is ' +
          'no password to remember.',
      ],
      button: 'Sign in',
      after: [`If you did not expect this, tell ${inviter ?? 'the owner'}: they can remove you.`],
    },
    { link: `${env.siteUrl()}/login/` },
  );
  return { ...senderFields(settings), to, ...letter };
}
