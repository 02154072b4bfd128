// The body's typography for mail clients (issue 21): one stylesheet for every element the campaign
// renderer allows — headings, paragraphs, links and lists in the layout's font, block quotes and
// the header rule in the accent colour, code and tables readable — inlined by juice, because Gmail
// and Outlook ignore or strip a stylesheet. A link alone in its paragraph becomes a button. Done
// once per campaign on the sanitised HTML (Liquid tags are still opaque words then): sanitize-html
// first sets the attributes mail clients read (a table's role and width, an image's alt), then
// juice the styles. Import-free (see merge-tags.ts).
import { inlineCss, type Juice } from './inline-css.ts';
import { FONT_STACK, TEXT_COLOR } from './layout.ts';

type Attributes = Record<string, string>;
type Transform = (tagName: string, attribs: Attributes) => { tagName: string; attribs: Attributes };

/** sanitize-html, as far as the styling pass uses it. */
export type StyleSanitizer = (
  html: string,
  options: {
    allowedTags: false;
    allowedAttributes: false;
    allowVulnerableTags: true;
    transformTags: Record<string, Transform>;
  },
) => string;

const MONO = `ui-monospace,SFMono-Regular,Menlo,Consolas,'Liberation Mono',monospace`;
const RULE = '#e4e4e7';
const TINT = '#f4f4f5';

/** The body's stylesheet, for an accent colour. */
export function bodyCss(accent: string): string {
  // The title (h1) usually opens the body: no space above it beyond the card's own.
  const heading = (size: number, line: number, top = 28) =>
    `margin:${top}px 0 12px;font-family:${FONT_STACK};font-size:${size}px;line-height:${line}px;font-weight:700;color:${TEXT_COLOR}`;
  const cell = `padding:8px 10px;border:1px solid ${RULE};text-align:left`;
  return `
h1{${heading(28, 34, 0)}}
h2{${heading(22, 30)}}
h3{${heading(18, 26)}}
h4{${heading(16, 24)}}
h5{${heading(15, 22)}}
h6{${heading(14, 20)}}
p{margin:0 0 16px}
a{color:${accent};text-decoration:underline}
ul,ol{margin:0 0 16px;padding:0 0 0 24px}
li{margin:0 0 6px}
blockquote{margin:0 0 16px;padding:4px 0 4px 16px;border-left:4px solid ${accent};color:#3f3f46;font-style:italic}
blockquote p:last-child{margin:0}
pre{margin:0 0 16px;padding:12px 14px;background-color:${TINT};border-radius:6px;font-family:${MONO};font-size:14px;line-height:20px;white-space:pre-wrap;word-wrap:break-word}
code{font-family:${MONO};font-size:14px;background-color:${TINT};border-radius:4px;padding:1px 4px}
pre code{padding:0;border-radius:0}
table{margin:0 0 16px;width:100%;border-collapse:collapse;font-size:15px;line-height:22px}
th{${cell};background-color:${TINT};font-weight:700}
td{${cell}}
th[align=center],td[align=center]{text-align:center}
th[align=right],td[align=right]{text-align:right}
hr{margin:28px 0;border:0;border-top:1px solid ${RULE};height:0}
img{display:block;max-width:100%;height:auto;border:0;text-decoration:none}`;
}

/** The attributes mail clients read, set before the styles are inlined. */
const attributesFor: Transform = (tagName, attribs) => {
  const attributes: Attributes = { ...attribs };
  if (tagName === 'img' && attributes.alt === undefined) attributes.alt = '';
  if (tagName === 'table') {
    attributes.role = 'presentation';
    attributes.width = '100%';
  }
  return { tagName, attribs: attributes };
};

const LONE_LINK = /<p style="[^"]*">\s*<a ([^>]*)>([^<]+)<\/a>\s*<\/p>/g;
const HREF = /\bhref="([^"]*)"/;

/** A button that survives Outlook: the colour on the cell, the link filling it. */
export function buttonHtml(href: string, labelHtml: string, accent: string): string {
  return (
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px">` +
    `<tr><td align="center" bgcolor="${accent}" style="background-color:${accent};border-radius:6px">` +
    `<a href="${href}" rel="noopener" style="display:inline-block;padding:12px 22px;font-family:${FONT_STACK};` +
    `font-size:16px;line-height:20px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:6px">` +
    `${labelHtml}</a></td></tr></table>`
  );
}

/**
 * The sanitised body with every element's style inline and lone links as buttons. A lone link whose
 * text is its own address (a pasted URL) stays a link.
 */
export function styledBodyHtml(
  deps: { sanitizeHtml: StyleSanitizer; juice: Juice },
  html: string,
  accent: string,
): string {
  const attributed = deps.sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    transformTags: { img: attributesFor, table: attributesFor },
  });
  const styled = inlineCss(deps.juice, attributed, bodyCss(accent));
  return styled.replace(LONE_LINK, (whole, attributes: string, label: string) => {
    const href = HREF.exec(attributes)?.[1];
    if (!href || label.trim() === href || label.trim().startsWith('http')) return whole;
    return buttonHtml(href, label.trim(), accent);
  });
}
