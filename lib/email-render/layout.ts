// The email around a campaign's body (SPEC §7): one centred column, the preheader, and the footer
// with why the reader gets this, unsubscribe, preferences, "view in browser" and the postal address.
// The layout step of the renderer: it is built once per campaign (a branded layout slots in here),
// and per recipient only the footer's links change. Import-free (see merge-tags.ts).

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
}

/** A recipient's links; all empty for a render with no reader (archive, web version). */
export interface FooterLinks {
  unsubscribe: string;
  preferences: string;
  web: string;
}

/** The layout, prepared once per campaign: what surrounds the body and the footer's fixed parts. */
export interface Layout {
  document(parts: {
    title: string;
    preheader: string;
    bodyHtml: string;
    links: FooterLinks;
  }): string;
  text(parts: { bodyText: string; links: FooterLinks }): string;
}

const FONT = `-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif`;
const LINK_STYLE = 'color:#555555';

function footerLinksHtml(links: FooterLinks): string {
  const items = [
    links.unsubscribe
      ? `<a href="${escapeHtml(links.unsubscribe)}" style="${LINK_STYLE}">Unsubscribe</a>`
      : '',
    links.preferences
      ? `<a href="${escapeHtml(links.preferences)}" style="${LINK_STYLE}">Preferences</a>`
      : '',
    links.web ? `<a href="${escapeHtml(links.web)}" style="${LINK_STYLE}">View in browser</a>` : '',
  ].filter(Boolean);
  return items.length ? `<p style="margin:8px 0 0">${items.join(' · ')}</p>` : '';
}

/** The simple responsive layout every campaign uses until a branded one replaces it. */
export function simpleLayout(settings: LayoutSettings): Layout {
  const site = escapeHtml(settings.site_name);
  const address = settings.postal_address
    ? `<p style="margin:8px 0 0">${escapeHtml(settings.postal_address)}</p>`
    : '';
  const why = `<p style="margin:0">You are receiving this because this address was subscribed to ${site}.</p>`;
  const from = `<p style="margin:0">${site}</p>`;
  const open = `<body style="margin:0;padding:0;background:#f4f4f5">`;
  const column =
    `<div style="max-width:600px;margin:0 auto;padding:24px 16px;font-family:${FONT};` +
    `font-size:16px;line-height:1.5;color:#18181b">\n` +
    `<div style="background:#ffffff;border-radius:8px;padding:24px">`;
  return {
    document({ title, preheader, bodyHtml, links }) {
      const hidden = preheader
        ? `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(preheader)}</div>`
        : '';
      // A reader's copy says why they get it; the archive's and the web version's name the site.
      const personal = links.unsubscribe !== '';
      return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title></head>
${open}${hidden}
${column}${bodyHtml}</div>
<div style="padding:16px 8px;font-size:13px;color:#555555">${personal ? why : from}${footerLinksHtml(links)}${address}</div>
</div></body></html>`;
    },
    text({ bodyText, links }) {
      const lines = [
        '--',
        links.unsubscribe
          ? `You are receiving this because this address was subscribed to ${settings.site_name}.`
          : settings.site_name,
        ...(links.unsubscribe ? [`Unsubscribe: ${links.unsubscribe}`] : []),
        ...(links.preferences ? [`Preferences: ${links.preferences}`] : []),
        ...(links.web ? [`View in browser: ${links.web}`] : []),
        ...(settings.postal_address ? [settings.postal_address] : []),
      ];
      return `${bodyText}\n\n${lines.join('\n')}\n`;
    },
  };
}
