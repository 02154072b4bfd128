// The short welcome after a confirmation: which lists, and on a waitlist the place and the link to
// share, with a link to the live place page (wording: lib/email-render/system-emails.ts). Sent only when the click confirmed something, so a
// reused link mails nobody.
import type { OutgoingMail } from '../_shared/mail.ts';
import { joinedNames } from '../../../lib/email-render/system-emails.ts';
import type { MailSettings } from '../_shared/subscriber-mail.ts';
import { systemMail } from '../_shared/system-mail.ts';

export interface Welcome {
  subscriberId: string;
  email: string;
  settings: MailSettings;
  listNames: string[];
  waitlist: {
    listName: string;
    position: number | null;
    /** The referral link to share. */
    url: string;
    /** The live place page (`/waitlist/?code=`). */
    placeUrl: string;
  } | null;
}

/** The welcome, in the team's wording (Settings → Emails) or the default. */
export function welcomeMail(w: Welcome): Promise<OutgoingMail> {
  const waitlist = w.waitlist;
  return systemMail('welcome', {
    settings: w.settings,
    to: w.email,
    subscriberId: w.subscriberId,
    values: {
      lists: joinedNames(w.listNames),
      ...(waitlist
        ? {
            waitlist: {
              list: waitlist.listName,
              position: waitlist.position,
              // The welcome knows the place, not the list's size nor the referrals (none yet).
              total: 0,
              referrals: 0,
              referral_url: waitlist.url,
              place_url: waitlist.placeUrl,
            },
          }
        : {}),
    },
  });
}
