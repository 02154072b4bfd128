// The body's typography for mail clients (issue 21): every element the campaign renderer allows
// gets its style inline — headings, paragraphs, links and lists in the layout's font, block quotes
// and the header rule in the accent colour, code and tables readable — because Gmail and Outlook
// ignore or strip a stylesheet. A link alone in its paragraph becomes a button. Done once per
// campaign on the sanitised HTML (Liquid tags are still opaque words then), with the same
// sanitize-html the renderer already passes in: a second pass that keeps every tag and attribute
// and only adds styles. Import-free (see merge-tags.ts).
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

/** The inline style of each element, for an accent colour. */
export function bodyStyles(accent: string): Record<string, string> {
  // The title (h1) usually opens the body: no space above it beyond the card's own.
  const heading = (size: number, line: number, top = 28) =>
    `margin:${top}px 0 12px;font-family:${FONT_STACK};font-size:${size}px;line-height:${line}px;font-weight:700;color:${TEXT_COLOR}`;
  return {
    h1: heading(28, 34, 0),
    h2: heading(22, 30),
    h3: heading(18, 26),
    h4: heading(16, 24),
    h5: heading(15, 22),
    h6: heading(14, 20),
    p: 'margin:0 0 16px',
    a: `color:${accent};text-decoration:underline`,
    ul: 'margin:0 0 16px;padding:0 0 0 24px',
    ol: 'margin:0 0 16px;padding:0 0 0 24px',
    li: 'margin:0 0 6px',
    blockquote: `margin:0 0 16px;padding:4px 0 4px 16px;border-left:4px solid ${accent};color:#3f3f46;font-style:italic`,
    pre: `margin:0 0 16px;padding:12px 14px;background-color:${TINT};border-radius:6px;font-family:${MONO};font-size:14px;line-height:20px;white-space:pre-wrap;word-wrap:break-word`,
    code: `font-family:${MONO};font-size:14px;background-color:${TINT};border-radius:4px;padding:1px 4px`,
    table: `margin:0 0 16px;width:100%;border-collapse:collapse;font-size:15px;line-height:22px`,
    th: `padding:8px 10px;border:1px solid ${RULE};background-color:${TINT};font-weight:700;text-align:left`,
    td: `padding:8px 10px;border:1px solid ${RULE};text-align:left`,
    hr: `margin:28px 0;border:0;border-top:1px solid ${RULE};height:0`,
    img: 'display:block;max-width:100%;height:auto;border:0;text-decoration:none',
  };
}

function withStyle(style: string): Transform {
  return (tagName, attribs) => {
    const attributes: Attributes = { ...attribs, style: style };
    // Mail clients take `align` (a table cell's Markdown alignment) over text-align in the style.
    if ((tagName === 'td' || tagName === 'th') && attribs.align)
      attributes.style = `${style};text-align:${attribs.align}`;
    if (tagName === 'img' && attributes.alt === undefined) attributes.alt = '';
    if (tagName === 'table') {
      attributes.role = 'presentation';
      attributes.width = '100%';
    }
    return { tagName, attribs: attributes };
  };
}

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
export function styledBodyHtml(sanitize: StyleSanitizer, html: string, accent: string): string {
  const styles = bodyStyles(accent);
  const transformTags = Object.fromEntries(
    Object.entries(styles).map(([tag, style]) => [tag, withStyle(style)]),
  );
  const styled = sanitize(html, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    transformTags,
  });
  return styled.replace(LONE_LINK, (whole, attributes: string, label: string) => {
    const href = HREF.exec(attributes)?.[1];
    if (!href || label.trim() === href || label.trim().startsWith('http')) return whole;
    return buttonHtml(href, label.trim(), accent);
  });
}
