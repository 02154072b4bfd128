// Tells the page that embeds this one (an iframe) how tall the form is, whenever that changes, so
// the host's snippet can size the iframe to it: no inner scrollbar, nothing cut off.
import { useEffect, type RefObject } from 'react';
import { EMBED_HEIGHT_MESSAGE } from './options';

export function useReportHeight(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = ref.current;
    if (!element || window.parent === window || typeof ResizeObserver === 'undefined') return;
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
  }, [ref]);
}
