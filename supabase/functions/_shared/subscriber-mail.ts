// Mail to subscribers (SPEC §7): signed footer links, RFC 8058 List-Unsubscribe headers, the postal
// address, a plain-text part always and a simple responsive HTML part. Small pieces so campaigns
// (issue 5) can compose their own bodies with the same footer and headers.
import { env } from './env.ts';
import { afterAnswer } from './http.ts';
import { formatAddress, sendMail, type OutgoingMail } from './mail.ts';
import { signToken } from './tokens.ts';

/** The settings columns mail needs (private.mail_settings() in SQL answers exactly these). */
export interface MailSettings {
  site_name: string;
  sender_name: string;
  sender_email: string;
  reply_to: string | null;
  postal_address: string;
  /** Null or absent: the default accent (lib/email-render/accent.ts). */
  accent_color?: string | null;
  logo_path?: string | null;
}

export interface SubscriberLinks {
  /**
   * The unsubscribe page (shows what happened, offers undo). It sits in the footer next to the
   * preferences link, so it carries that token too (`&preferences=`) for the page's "Manage
   * preferences"; the unsubscribe token alone never leads there.
   */
  unsubscribe: string;
  preferences: string;
  /**
   * The `unsubscribe` function itself, for the RFC 8058 one-click POST (List-Unsubscribe): the
   * unsubscribe token only, since the mailbox provider reads that header.
   */
  oneClick: string;
}

/**
 * Signed, non-expiring footer links for one subscriber; `listIds` narrows the unsubscribe and
 * `campaignId` names the campaign an unsubscribe through them (either link: the unsubscribe page or
 * the preferences page) is counted for, or `stepId` the automation email step.
 */
export function subscriberLinks(
  subscriberId: string,
  listIds?: string[],
  campaignId?: string,
  stepId?: string,
): SubscriberLinks {
  const source = campaignId ? { c: campaignId } : stepId ? { a: stepId } : {};
  const unsubscribe = signToken({
    p: 'unsubscribe',
    s: subscriberId,
    ...(listIds?.length ? { l: listIds } : {}),
    ...source,
  });
  // Names the email too, so unsubscribing on the preferences page counts for it.
  const preferences = signToken({ p: 'preferences', s: subscriberId, ...source });
  const site = env.siteUrl();
  return {
    unsubscribe: `${site}/unsubscribe/?token=${unsubscribe}&preferences=${preferences}`,
    preferences: `${site}/preferences/?token=${preferences}`,
    oneClick: `${env.functionUrl('unsubscribe')}?token=${unsubscribe}`,
  };
}

/**
 * The reader of a test email (a campaign's "Send test", Settings → Emails): no subscriber has this
 * id, and only these functions sign tokens, so a token naming it is a test email's link. The
 * unsubscribe and preferences functions answer it with `{test: true}` and change nothing.
 */
export const TEST_SUBSCRIBER = '00000000-0000-0000-0000-000000000000';

export function isTestSubscriber(subscriberId: string): boolean {
  return subscriberId === TEST_SUBSCRIBER;
}

/** A test email's footer links: the pages open their "this is a test" state (`test=1`). */
export function testLinks(): SubscriberLinks {
  const links = subscriberLinks(TEST_SUBSCRIBER);
  const site = env.siteUrl();
  return {
    ...links,
    unsubscribe: links.unsubscribe.replace(`${site}/unsubscribe/?`, `${site}/unsubscribe/?test=1&`),
    preferences: links.preferences.replace(`${site}/preferences/?`, `${site}/preferences/?test=1&`),
  };
}

/** RFC 2369 / RFC 8058 headers: one-click HTTPS first, mailto as the fallback. */
export function listUnsubscribeHeaders(
  links: SubscriberLinks,
  settings: MailSettings,
): Record<string, string> {
  return {
    'List-Unsubscribe': `<${links.oneClick}>, <mailto:${settings.sender_email}?subject=unsubscribe>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The footer of the plain-text part. */
export function footerText(settings: MailSettings, links: SubscriberLinks): string {
  return [
    '--',
    `You are receiving this because this address was subscribed to ${settings.site_name}.`,
    `Unsubscribe: ${links.unsubscribe}`,
    `Preferences: ${links.preferences}`,
    ...(settings.postal_address ? [settings.postal_address] : []),
  ].join('\n');
}

/** The footer of the HTML part. */
export function footerHtml(settings: MailSettings, links: SubscriberLinks): string {
  const address = settings.postal_address
    ? `<p style="margin:8px 0 0">${escapeHtml(settings.postal_address)}</p>`
    : '';
  return (
    `<p style="margin:0">You are receiving this because this address was subscribed to ` +
    `${escapeHtml(settings.site_name)}.</p>` +
    `<p style="margin:8px 0 0"><a href="${escapeHtml(links.unsubscribe)}" style="color:#555">Unsubscribe</a>` +
    ` · <a href="${escapeHtml(links.preferences)}" style="color:#555">Preferences</a></p>` +
    address
  );
}

/** A text block as HTML paragraphs (blank lines separate paragraphs), escaped. */
export function paragraphsHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p style="margin:0 0 16px">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** A call-to-action link styled as a button (a plain link in clients that drop styles). */
export function buttonHtml(label: string, href: string): string {
  return (
    `<p style="margin:24px 0"><a href="${escapeHtml(href)}" style="display:inline-block;` +
    `background:#1f4fd1;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;` +
    `font-weight:600">${escapeHtml(label)}</a></p>`
  );
}

/** One centred column, max 600 px, that narrows on phones; inline styles for mail clients. */
export function layoutHtml(parts: {
  title: string;
  bodyHtml: string;
  footerHtml: string;
  preheader?: string;
}): string {
  const preheader = parts.preheader
    ? `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(parts.preheader)}</div>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title></head>
<body style="margin:0;padding:0;background:#f4f4f5">${preheader}
<div style="max-width:600px;margin:0 auto;padding:24px 16px;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;color:#18181b">
<div style="background:#ffffff;border-radius:8px;padding:24px">${parts.bodyHtml}</div>
<div style="padding:16px 8px;font-size:13px;color:#555555">${parts.footerHtml}</div>
</div></body></html>`;
}

/** From and Reply-To as the settings name them. */
export function senderFields(settings: MailSettings): { from: string; replyTo?: string } {
  return {
    from: formatAddress(settings.sender_name, settings.sender_email),
    ...(settings.reply_to ? { replyTo: settings.reply_to } : {}),
  };
}

/**
 * A complete message to one subscriber: the given text and HTML bodies with the footer appended,
 * sender identity, and the List-Unsubscribe headers.
 */
export function subscriberMail(parts: {
  settings: MailSettings;
  to: string;
  subscriberId: string;
  subject: string;
  text: string;
  bodyHtml: string;
  preheader?: string;
  listIds?: string[];
}): OutgoingMail {
  const links = subscriberLinks(parts.subscriberId, parts.listIds);
  return {
    ...senderFields(parts.settings),
    to: parts.to,
    subject: parts.subject,
    text: `${parts.text.trimEnd()}\n\n${footerText(parts.settings, links)}\n`,
    html: layoutHtml({
      title: parts.subject,
      bodyHtml: parts.bodyHtml,
      footerHtml: footerHtml(parts.settings, links),
      preheader: parts.preheader,
    }),
    headers: listUnsubscribeHeaders(links, parts.settings),
  };
}

/**
 * Builds and sends a message after the answer has gone out (afterAnswer: a macrotask later, under
 * EdgeRuntime.waitUntil), so neither building nor signing nor sending delays the answer. A failure
 * of either is logged, not thrown: what the request did is done, and the visitor can ask for the
 * mail again.
 */
export function sendInBackground(build: () => OutgoingMail | Promise<OutgoingMail>): void {
  void afterAnswer(
    async () => sendMail(await build()),
    (error) => console.error('sending mail failed', error),
  );
}
