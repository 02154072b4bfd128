// Tells the page that embeds this one (an iframe) how tall the form is, whenever that changes, so
// the host's snippet can size the iframe to it: no inner scrollbar, nothing cut off.
import { EMBED_HEIGHT_MESSAGE } from './options';

/** Reports `element`'s height to the parent window from now on; returns what stops it. */
export function reportHeight(element: HTMLElement): () => void {
  if (window.parent === window || typeof ResizeObserver === 'undefined') return () => undefined;
  let last = 0;
  const report = () => {
    // The bottom edge plus the body's margin below it: the page's own height, not the iframe's.
    const style = getComputedStyle(element);
    const height = Math.ceil(
      element.getBoundingClientRect().bottom + window.scrollY + parseFloat(style.marginBottom),
    );
    if (height === last) return;
    last = height;
    // The height is no secret, and the host's origin is unknown: any parent may read it.
    window.parent.postMessage({ type: EMBED_HEIGHT_MESSAGE, height }, '*');
  };
  const observer = new ResizeObserver(report);
  observer.observe(element);
  report();
  return () => observer.disconnect();
}
