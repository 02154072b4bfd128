// The branded email layout (issue 21) around every Postbox email — campaigns, the subscriber emails
// and Auth's: the logo or site name on top with the owner's accent colour, a white card for the
// body, and the footer with why the reader gets this, unsubscribe, preferences, "view in browser"
// and the postal address. Nested tables (what Outlook lays out) styled by one stylesheet that juice
// inlines (see inline-css.ts), because Gmail and Outlook drop or ignore a <style> block: the only
// <style> left narrows the padding on phones, so nothing essential depends on it.
// tests/email/caniemail.test.ts checks the result against caniemail's data.
// Inlined once per layout; per email only the body and the links are filled in. Import-free (see
// merge-tags.ts): each runtime passes its own juice.
import { DEFAULT_ACCENT, safeAccent } from './accent.ts';
import { inlineCss, type Juice } from './inline-css.ts';

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

/** The layout's stylesheet: classes on the frame, inlined by juice (the accent is the owner's). */
function layoutCss(accent: string): string {
  const text = `font-family:${FONT_STACK};font-size:16px;line-height:26px;color:${TEXT_COLOR}`;
  return `
.pb-body{margin:0;padding:0;background-color:${PAGE}}
.pb-page{background-color:${PAGE}}
.pb-outer{padding:24px 12px}
.pb-frame{max-width:600px;${text}}
.pb-preheader{display:none;max-height:0;max-width:0;overflow:hidden;mso-hide:all;font-size:1px;line-height:1px;color:${PAGE}}
.pb-browser{padding:0 4px 8px;font-size:12px;line-height:18px;color:${MUTED}}
.pb-quiet{color:${MUTED};text-decoration:underline}
.pb-head{background-color:#ffffff;border-top:4px solid ${accent};border-radius:8px 8px 0 0;padding:24px 32px 0}
.pb-logo{display:block;height:${LOGO_HEIGHT}px;width:auto;max-width:240px;border:0;text-decoration:none}
.pb-site{font-size:20px;line-height:28px;font-weight:700;color:${accent}}
.pb-card{background-color:#ffffff;border-radius:0 0 8px 8px;padding:24px 32px 32px;${text};word-wrap:break-word;word-break:break-word}
.pb-foot{padding:20px 16px 8px;font-family:${FONT_STACK};font-size:13px;line-height:20px;color:${MUTED}}
.pb-why{margin:0}
.pb-more{margin:8px 0 0}`;
}

// What a phone narrows; juice leaves media queries alone, so this block stays as written.
const RESPONSIVE_STYLE =
  `<style>@media only screen and (max-width:480px){` +
  `.pb-outer{padding:12px 6px !important}.pb-card{padding:20px 18px 24px !important}` +
  `.pb-head{padding:18px 18px 0 !important}}</style>`;

// Where each email's own parts go in the inlined frame: words no body or setting contains.
const SLOT = {
  title: 'pbslottitlez',
  preheader: 'pbslotpreheaderz',
  browser: 'pbslotbrowserz',
  body: 'pbslotbodyz',
  why: 'pbslotwhyz',
  links: 'pbslotlinksz',
  href: 'pbslothrefz',
  label: 'pbslotlabelz',
} as const;

const TABLE = `role="presentation" cellpadding="0" cellspacing="0" border="0"`;

function headerHtml(settings: LayoutSettings): string {
  const site = escapeHtml(settings.site_name);
  if (settings.logo_url)
    return `<img class="pb-logo" src="${escapeHtml(settings.logo_url)}" alt="${site}" height="${LOGO_HEIGHT}">`;
  return `<span class="pb-site">${site}</span>`;
}

/** The frame with a slot for each email's own parts, before inlining. */
function frameHtml(settings: LayoutSettings): string {
  const address = settings.postal_address
    ? `<p class="pb-more">${escapeHtml(settings.postal_address).replace(/\r?\n/g, '<br>')}</p>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="x-apple-disable-message-reformatting">
<meta name="color-scheme" content="light only">
<title>${SLOT.title}</title>
</head>
<body class="pb-body">
${SLOT.preheader}<table ${TABLE} width="100%" class="pb-page"><tr><td class="pb-outer" align="center">
<!--[if mso]><table ${TABLE} width="600" align="center"><tr><td><![endif]-->
<table ${TABLE} width="100%" class="pb-frame">
${SLOT.browser}<tr><td class="pb-head">${headerHtml(settings)}</td></tr>
<tr><td class="pb-card">
${SLOT.body}
</td></tr>
<tr><td class="pb-foot" align="center"><p class="pb-why">${SLOT.why}</p>${SLOT.links}${address}</td></tr>
</table>
<!--[if mso]></td></tr></table><![endif]-->
</td></tr></table>
</body></html>`;
}

/** The branded layout for these settings; `reason` says why the reader gets the email. */
export function brandedLayout(
  juice: Juice,
  settings: LayoutSettings,
  reason: Reason = SUBSCRIBED_REASON,
): Layout {
  const accent = safeAccent(settings.accent_color ?? DEFAULT_ACCENT);
  const css = layoutCss(accent);
  const inline = (html: string) => inlineCss(juice, html, css);
  const frame = inline(frameHtml(settings)).replace('</head>', `${RESPONSIVE_STYLE}</head>`);
  const preheader = inline(`<div class="pb-preheader">${SLOT.preheader}</div>\n`);
  const browser = inline(
    `<tr><td class="pb-browser" align="right"><a href="${SLOT.href}" class="pb-quiet">View in browser</a></td></tr>\n`,
  );
  const link = inline(`<a href="${SLOT.href}" class="pb-quiet">${SLOT.label}</a>`);
  const linksParagraph = inline(`<p class="pb-more">${SLOT.links}</p>`);
  const site = escapeHtml(settings.site_name);
  // Filled in with functions: a body may contain `$&` and the like.
  const fill = (template: string, slot: string, value: string) =>
    template.replace(slot, () => value);
  return {
    accent,
    document({ title, preheader: hidden, bodyHtml, links }) {
      // A reader's copy says why they get it; the archive's and the web version's name the site.
      const why =
        links.unsubscribe || links.preferences ? escapeHtml(reason(settings.site_name)) : site;
      const items = (
        [
          [links.unsubscribe, 'Unsubscribe'],
          [links.preferences, 'Preferences'],
          [links.web, 'View in browser'],
        ] as const
      )
        .filter(([href]) => href)
        .map(([href, label]) => fill(fill(link, SLOT.href, escapeHtml(href)), SLOT.label, label));
      let html = fill(frame, SLOT.title, escapeHtml(title));
      html = fill(
        html,
        SLOT.preheader,
        hidden ? fill(preheader, SLOT.preheader, escapeHtml(hidden)) : '',
      );
      html = fill(
        html,
        SLOT.browser,
        links.web ? fill(browser, SLOT.href, escapeHtml(links.web)) : '',
      );
      html = fill(html, SLOT.why, why);
      html = fill(
        html,
        SLOT.links,
        items.length ? fill(linksParagraph, SLOT.links, items.join(' &middot; ')) : '',
      );
      return fill(html, SLOT.body, bodyHtml);
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
