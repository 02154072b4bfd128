// At build time: an issue's body_html as the safe nodes the browser would make of it
// (lib/archive-html.ts), parsed by parse5 (the HTML standard's parsing algorithm, as DOMParser), so
// /archive/<slug>/ has its body in the exported HTML and hydrates to the same elements.
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { safeNodes, type SafeNode, type TreeReader } from '../archive-html';

type Node = DefaultTreeAdapterMap['childNode'];

const parse5Reader: TreeReader<Node> = {
  text: (node) =>
    node.nodeName === '#text' ? (node as DefaultTreeAdapterMap['textNode']).value : null,
  element: (node) =>
    'tagName' in node ? { tag: node.tagName, namespace: node.namespaceURI } : null,
  attribute: (node, name) =>
    'attrs' in node
      ? (node.attrs.find((a) => a.name === name && !a.namespace)?.value ?? null)
      : null,
  children: (node) => ('childNodes' in node ? node.childNodes : []),
};

/**
 * The safe nodes of `html`; `base` resolves relative links (the issue's own URL on the site).
 * DOMParser documents have scripting disabled, so parse5's is too (it decides how <noscript> parses).
 */
export function issueBodySafeNodesAtBuild(html: string, base: string): SafeNode[] {
  const doc = parse(html, { scriptingEnabled: false });
  const root = doc.childNodes.find((n) => n.nodeName === 'html');
  const body =
    root && 'childNodes' in root ? root.childNodes.find((n) => n.nodeName === 'body') : undefined;
  return body && 'childNodes' in body ? safeNodes(parse5Reader, body.childNodes, base) : [];
}
