// An archived issue's body_html as React elements, rebuilt from an allowlist (defence in depth).
// The same conversion runs on a browser DOM (DOMParser) and, at build time, on parse5's tree
// (lib/build/archive-body.ts, the HTML standard's parser too), so a pre-rendered issue page carries
// its body in the exported HTML and hydrates to exactly the same elements.
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

/** An allowed element (React props, children) or text: plain data, so the build can pass it on. */
export type SafeNode =
  string | { tag: string; props: Record<string, string | number>; children: SafeNode[] };

/** How the converter reads a parsed tree: the browser's DOM or parse5's default tree. */
export interface TreeReader<N> {
  /** The text of a text node, null for any other node. */
  text(node: N): string | null;
  /** An element's local name and namespace, null for comments and other non-elements. */
  element(node: N): { tag: string; namespace: string | undefined } | null;
  attribute(node: N, name: string): string | null;
  children(node: N): readonly N[];
}

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

function props<N>(read: TreeReader<N>, node: N, tag: string, base: string) {
  const out: Record<string, string | number> = {};
  for (const name of ALLOWED_ATTRIBUTES[tag] ?? []) {
    // The renderer's inline image style is for mail clients; the page styles images itself.
    if (name === 'style' || name === 'rel') continue;
    const value = read.attribute(node, name);
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

/** The allowed part of `nodes` (children of `parent`), with every URL checked again. */
export function safeNodes<N>(
  read: TreeReader<N>,
  nodes: readonly N[],
  base: string,
  parent = '',
): SafeNode[] {
  const out: SafeNode[] = [];
  for (const node of nodes) {
    const text = read.text(node);
    if (text !== null) {
      // Whitespace between table rows or list items is not content (and not valid there).
      if (!(STRUCTURAL.has(parent) && !text.trim())) out.push(text);
      continue;
    }
    const element = read.element(node);
    if (!element) continue; // comments, processing instructions
    const { tag } = element;
    // Only HTML elements: an <svg> or <math> subtree (and anything in it) never comes through.
    if (element.namespace !== HTML_NAMESPACE || DROPPED_WITH_CONTENT.has(tag)) continue;
    const children = read.children(node);
    if (!ALLOWED_TAGS.has(tag)) {
      out.push(...safeNodes(read, children, base, parent));
      continue;
    }
    const heading = HEADING.exec(tag);
    const name = heading ? `h${Math.min(Number(heading[1]) + 1, 6)}` : tag;
    const attributes = props(read, node, tag, base);
    if (VOID.has(tag)) {
      out.push({ tag: name, props: attributes, children: [] });
    } else if (tag === 'table') {
      // Wide tables scroll inside their own box instead of widening the page.
      out.push({
        tag: 'div',
        props: { className: 'issue-table', role: 'region', 'aria-label': 'Table', tabIndex: 0 },
        children: [{ tag: 'table', props: {}, children: safeNodes(read, children, base, 'table') }],
      });
    } else if (tag === 'pre') {
      // A code block may scroll sideways; keyboard users need to reach it to scroll it.
      out.push({
        tag,
        props: { ...attributes, tabIndex: 0 },
        children: safeNodes(read, children, base, tag),
      });
    } else {
      out.push({ tag: name, props: attributes, children: safeNodes(read, children, base, tag) });
    }
  }
  return out;
}

/** Safe nodes as React elements, keyed by position. */
export function renderSafeNodes(nodes: readonly SafeNode[]): ReactNode[] {
  return nodes.map((node, key) =>
    typeof node === 'string'
      ? node
      : createElement(
          node.tag,
          { ...node.props, key },
          ...(node.children.length ? [renderSafeNodes(node.children)] : []),
        ),
  );
}

/** The browser's DOM, as DOMParser builds it. */
const domReader: TreeReader<ChildNode> = {
  text: (node) => (node.nodeType === Node.TEXT_NODE ? (node.textContent ?? '') : null),
  element: (node) =>
    node.nodeType === Node.ELEMENT_NODE
      ? { tag: (node as Element).localName, namespace: (node as Element).namespaceURI ?? undefined }
      : null,
  attribute: (node, name) => (node as Element).getAttribute(name),
  children: (node) => Array.from(node.childNodes),
};

/** The issue body's safe nodes, in the browser; `base` resolves relative links (the page's address). */
export function issueBodySafeNodes(html: string, base: string): SafeNode[] {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return safeNodes(domReader, Array.from(doc.body.childNodes), base);
}

/** The issue body as React nodes, in the browser. */
export function issueBodyNodes(html: string, base: string): ReactNode[] {
  return renderSafeNodes(issueBodySafeNodes(html, base));
}
