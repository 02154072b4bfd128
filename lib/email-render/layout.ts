// The branded email layout (issue 21) around every Postbox email — campaigns, the subscriber emails
// and Auth's: the logo or site name on top with the owner's accent colour, a white card for the
// body, and the footer with why the reader gets this, unsubscribe, preferences, "view in browser"
// and the postal address. Hand-written nested tables with inline styles only (what Gmail, Outlook
// and Apple Mail all render; tests/email/caniemail.test.ts checks it against caniemail's data): the
// one <style> block only narrows the padding on phones, so nothing essential depends on it.
// Built once per campaign; per recipient only the links are filled in. Import-free (see merge-tags.ts).
import { DEFAULT_ACCENT, safeAccent } from './accent.ts';

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The settings a layout shows. */
export interface LayoutSettings {
  site_name: string;
  postal_address: string;
  /** `#rrggbb`; an unreadable or missing one falls back to the default (accent.ts). */
  accent_color?: string | null;
  /** The logo's absolute public URL, or null/absent for the site name in text. */
  logo_url?: string | null;
}

/** A recipient's links; all empty for a render with no reader (archive, web version). */
export interface FooterLinks {
  unsubscribe: string;
  preferences: string;
  web: string;
}

/** The layout, prepared once per campaign: what surrounds the body and the footer's fixed parts. */
export interface Layout {
  /** The accent colour in use (the body's links and buttons take it too). */
  accent: string;
  document(parts: {
    title: string;
    preheader: string;
    bodyHtml: string;
    links: FooterLinks;
  }): string;
  text(parts: { bodyText: string; links: FooterLinks }): string;
}

export const FONT_STACK = `-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif`;
export const TEXT_COLOR = '#18181b';
const MUTED = '#52525b';
const PAGE = '#f4f4f5';
const LOGO_HEIGHT = 40;

/** Why the reader gets this email; the default is a campaign's (the address is subscribed). */
export type Reason = (site: string) => string;
export const SUBSCRIBED_REASON: Reason = (site) =>
  `You are receiving this because this address was subscribed to ${site}.`;

function footerLinksHtml(links: FooterLinks): string {
  const style = `color:${MUTED};text-decoration:underline`;
  const items = [
    links.unsubscribe
      ? `<a href="${escapeHtml(links.unsubscribe)}" style="${style}">Unsubscribe</a>`
      : '',
    links.preferences
      ? `<a href="${escapeHtml(links.preferences)}" style="${style}">Preferences</a>`
      : '',
    links.web ? `<a href="${escapeHtml(links.web)}" style="${style}">View in browser</a>` : '',
  ].filter(Boolean);
  return items.length ? `<p style="margin:8px 0 0">${items.join(' &middot; ')}</p>` : '';
}

function headerHtml(settings: LayoutSettings, accent: string): string {
  const site = escapeHtml(settings.site_name);
  if (settings.logo_url)
    return (
      `<img src="${escapeHtml(settings.logo_url)}" alt="${site}" height="${LOGO_HEIGHT}" ` +
      `style="display:block;height:${LOGO_HEIGHT}px;width:auto;max-width:240px;border:0;text-decoration:none">`
    );
  return `<span style="font-size:20px;line-height:28px;font-weight:700;color:${accent}">${site}</span>`;
}

const RESPONSIVE_STYLE =
  `<style>@media only screen and (max-width:480px){` +
  `.pb-outer{padding:12px 6px !important}.pb-card{padding:20px 18px 24px !important}` +
  `.pb-head{padding:18px 18px 0 !important}}</style>`;

/** The branded layout for these settings; `reason` says why the reader gets the email. */
export function brandedLayout(
  settings: LayoutSettings,
  reason: Reason = SUBSCRIBED_REASON,
): Layout {
  const accent = safeAccent(settings.accent_color ?? DEFAULT_ACCENT);
  const site = escapeHtml(settings.site_name);
  const address = settings.postal_address
    ? `<p style="margin:8px 0 0">${escapeHtml(settings.postal_address).replace(/\r?\n/g, '<br>')}</p>`
    : '';
  const header = headerHtml(settings, accent);
  const table = `role="presentation" cellpadding="0" cellspacing="0" border="0"`;
  return {
    accent,
    document({ title, preheader, bodyHtml, links }) {
      const hidden = preheader
        ? `<div style="display:none;max-height:0;max-width:0;overflow:hidden;mso-hide:all;font-size:1px;line-height:1px;color:${PAGE}">${escapeHtml(preheader)}</div>\n`
        : '';
      // A reader's copy says why they get it; the archive's and the web version's name the site.
      const why =
        links.unsubscribe || links.preferences ? escapeHtml(reason(settings.site_name)) : site;
      const browser = links.web
        ? `<tr><td align="right" style="padding:0 4px 8px;font-size:12px;line-height:18px;color:${MUTED}">` +
          `<a href="${escapeHtml(links.web)}" style="color:${MUTED};text-decoration:underline">View in browser</a></td></tr>\n`
        : '';
      return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="x-apple-disable-message-reformatting">
<meta name="color-scheme" content="light only">
<title>${escapeHtml(title)}</title>
${RESPONSIVE_STYLE}</head>
<body style="margin:0;padding:0;background-color:${PAGE}">
${hidden}<table ${table} width="100%" style="background-color:${PAGE}"><tr><td class="pb-outer" align="center" style="padding:24px 12px">
<!--[if mso]><table ${table} width="600" align="center"><tr><td><![endif]-->
<table ${table} width="100%" style="max-width:600px;font-family:${FONT_STACK};font-size:16px;line-height:26px;color:${TEXT_COLOR}">
${browser}<tr><td class="pb-head" bgcolor="#ffffff" style="background-color:#ffffff;border-top:4px solid ${accent};border-radius:8px 8px 0 0;padding:24px 32px 0">${header}</td></tr>
<tr><td class="pb-card" bgcolor="#ffffff" style="background-color:#ffffff;border-radius:0 0 8px 8px;padding:24px 32px 32px;font-family:${FONT_STACK};font-size:16px;line-height:26px;color:${TEXT_COLOR};word-wrap:break-word;word-break:break-word">
${bodyHtml}
</td></tr>
<tr><td align="center" style="padding:20px 16px 8px;font-family:${FONT_STACK};font-size:13px;line-height:20px;color:${MUTED}"><p style="margin:0">${why}</p>${footerLinksHtml(links)}${address}</td></tr>
</table>
<!--[if mso]></td></tr></table><![endif]-->
</td></tr></table>
</body></html>`;
    },
    text({ bodyText, links }) {
      const personal = links.unsubscribe || links.preferences;
      const lines = [
        '--',
        personal ? reason(settings.site_name) : settings.site_name,
        ...(links.unsubscribe ? [`Unsubscribe: ${links.unsubscribe}`] : []),
        ...(links.preferences ? [`Preferences: ${links.preferences}`] : []),
        ...(links.web ? [`View in browser: ${links.web}`] : []),
        ...(settings.postal_address ? [settings.postal_address] : []),
      ];
      return `${bodyText}\n\n${lines.join('\n')}\n`;
    },
  };
}

/** The earlier name, kept for callers that do not brand (the same layout). */
export const simpleLayout = (settings: LayoutSettings): Layout => brandedLayout(settings);
