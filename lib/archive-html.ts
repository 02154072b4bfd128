// An archived issue's body_html as React elements, rebuilt from an allowlist (defence in depth).
//
// body_html was sanitised when the send started (lib/campaign-render.ts), but the page does not
// trust the column: it never hands the string to the live document's HTML parser
// (no innerHTML). DOMParser builds an inert document (no scripts run, nothing loads), and only the
// tags and attributes the campaign renderer allows come back out as React elements, with every URL
// checked again. An event handler, a script or a javascript: link cannot be expressed this way, so
// nothing in the column can run even if it were written there by hand. Unlike a sandboxed iframe,
// the issue stays part of the page: the site's theme, light and dark, the heading outline and
// ordinary links, with no script needed to size a frame to its content.
import { createElement, type ReactNode } from 'react';
import { CAMPAIGN_SANITIZE_OPTIONS } from './campaign-render';

const ALLOWED_TAGS = new Set<string>(CAMPAIGN_SANITIZE_OPTIONS.allowedTags);
const ALLOWED_ATTRIBUTES: Record<string, readonly string[]> =
  CAMPAIGN_SANITIZE_OPTIONS.allowedAttributes;
/** Dropped with everything inside them, as the renderer does; other unknown tags keep their text. */
const DROPPED_WITH_CONTENT = new Set([
  ...['script', 'style', 'textarea', 'noscript', 'template', 'iframe', 'frame', 'object'],
  ...['embed', 'svg', 'math', 'select', 'option', 'title', 'head', 'noembed', 'xmp', 'canvas'],
]);
const VOID = new Set(['br', 'hr', 'img']);
const STRUCTURAL = new Set(['table', 'thead', 'tbody', 'tr', 'ul', 'ol']);
/** The page's own h1 is the subject, so the body's headings move one level down. */
const HEADING = /^h([1-6])$/;
const URL_SCHEMES: Record<string, readonly string[]> = {
  href: ['http:', 'https:', 'mailto:'],
  src: ['http:', 'https:'],
};

/** The URL when its scheme is allowed for this attribute (relative URLs resolve against the page). */
export function safeUrl(value: string, attribute: 'href' | 'src', base: string): string | null {
  try {
    const url = new URL(value.trim(), base);
    return URL_SCHEMES[attribute]!.includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

function props(element: Element, tag: string, key: number, base: string) {
  const out: Record<string, string | number> = { key };
  for (const name of ALLOWED_ATTRIBUTES[tag] ?? []) {
    // The renderer's inline image style is for mail clients; the page styles images itself.
    if (name === 'style' || name === 'rel') continue;
    const value = element.getAttribute(name);
    if (value === null) continue;
    if (name === 'href' || name === 'src') {
      const url = safeUrl(value, name, base);
      if (url) out[name] = url;
    } else if (name === 'start' || name === 'width' || name === 'height') {
      const n = Number.parseInt(value, 10);
      if (Number.isFinite(n) && n >= 0) out[name] = n;
    } else {
      out[name] = value;
    }
  }
  if (tag === 'a') out.rel = 'noopener noreferrer nofollow';
  if (tag === 'img') {
    out.loading = 'lazy';
    out.decoding = 'async';
    if (!('alt' in out)) out.alt = '';
  }
  return out;
}

function convert(nodes: NodeListOf<ChildNode>, base: string, parent = ''): ReactNode[] {
  const out: ReactNode[] = [];
  nodes.forEach((node, key) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = node.textContent ?? '';
      // Whitespace between table rows or list items is not content (and not valid there).
      if (!(STRUCTURAL.has(parent) && !text.trim())) out.push(text);
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return; // comments, processing instructions
    const element = node as Element;
    const tag = element.localName;
    // Only HTML elements: an <svg> or <math> subtree (and anything in it) never comes through.
    if (element.namespaceURI !== 'http://www.w3.org/1999/xhtml' || DROPPED_WITH_CONTENT.has(tag)) {
      return;
    }
    if (!ALLOWED_TAGS.has(tag)) {
      out.push(...convert(element.childNodes, base, parent));
      return;
    }
    const heading = HEADING.exec(tag);
    const name = heading ? `h${Math.min(Number(heading[1]) + 1, 6)}` : tag;
    const attributes = props(element, tag, key, base);
    if (VOID.has(tag)) {
      out.push(createElement(name, attributes));
    } else if (tag === 'table') {
      // Wide tables scroll inside their own box instead of widening the page.
      out.push(
        createElement(
          'div',
          { key, className: 'issue-table', role: 'region', 'aria-label': 'Table', tabIndex: 0 },
          createElement('table', null, ...convert(element.childNodes, base, 'table')),
        ),
      );
    } else if (tag === 'pre') {
      // A code block may scroll sideways; keyboard users need to reach it to scroll it.
      out.push(
        createElement(
          'pre',
          { ...attributes, tabIndex: 0 },
          ...convert(element.childNodes, base, tag),
        ),
      );
    } else {
      out.push(createElement(name, attributes, ...convert(element.childNodes, base, tag)));
    }
  });
  return out;
}

/** The issue body as React nodes; `base` resolves relative links (the page's own address). */
export function issueBodyNodes(html: string, base: string): ReactNode[] {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return convert(doc.body.childNodes, base);
}
