// A campaign's web version: the email's own document in a sandboxed iframe (no scripts, no
// same-origin access; links open in a new tab), sized to its content once it has loaded.
import { useCallback, useRef, useState } from 'react';
import styles from './Archive.module.css';

/** Links in the email leave the frame for a tab of their own instead of loading inside it. */
function withBaseTarget(html: string): string {
  return html.replace(/<head>/i, '<head><base target="_blank">');
}

export default function WebVersionFrame({ html, title }: { html: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState<number | null>(null);
  // allow-same-origin (without allow-scripts) only so this page can read the height it needs;
  // nothing in the document can run.
  const measure = useCallback(() => {
    // The body's own height: the root element is never shorter than the frame it fills.
    const body = frame.current?.contentDocument?.body;
    if (body) setHeight(Math.ceil(body.getBoundingClientRect().height));
  }, []);
  return (
    <iframe
      ref={frame}
      className={styles.webFrame}
      title={title}
      sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox"
      srcDoc={withBaseTarget(html)}
      referrerPolicy="no-referrer"
      onLoad={measure}
      style={height ? { height: `${height}px` } : undefined}
      data-testid="web-version"
    />
  );
}
