// The short welcome after a confirmation: which lists, and on a waitlist the place and the link to
// share, with a link to the live place page. Sent only when the click confirmed something, so a
// reused link mails nobody.
import type { OutgoingMail } from '../_shared/mail.ts';
import {
  buttonHtml,
  escapeHtml,
  paragraphsHtml,
  subscriberMail,
  type MailSettings,
} from '../_shared/subscriber-mail.ts';

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

export function welcomeMail(w: Welcome): OutgoingMail {
  const site = w.settings.site_name;
  const intro = `You are now subscribed to ${w.listNames.join(', ')} from ${site}. Thank you!`;
  const place =
    w.waitlist && w.waitlist.position !== null
      ? `You are number ${w.waitlist.position} on the ${w.waitlist.listName}. ` +
        'Share your link: every friend who signs up and confirms moves you up.'
      : null;
  const live = w.waitlist ? `See your place in line, updated live: ${w.waitlist.placeUrl}` : null;
  const text = [intro, ...(place && w.waitlist ? [place, w.waitlist.url, live] : [])].join('\n\n');
  return subscriberMail({
    settings: w.settings,
    to: w.email,
    subscriberId: w.subscriberId,
    subject: `Welcome to ${site}`,
    text: `${text}\n`,
    bodyHtml:
      `<h1 style="font-size:22px;margin:0 0 16px">Welcome to ${escapeHtml(site)}</h1>` +
      paragraphsHtml(intro) +
      (place && w.waitlist
        ? paragraphsHtml(place) +
          buttonHtml('Your referral link', w.waitlist.url) +
          paragraphsHtml('Your place changes as people join and refer friends.') +
          buttonHtml('See your place live', w.waitlist.placeUrl)
        : ''),
  });
}
