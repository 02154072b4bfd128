// An archived issue's body: body_html rebuilt as React elements from the renderer's allowlist
// (lib/archive-html.ts), so nothing in the column can run, styled for reading.
import { useMemo, useSyncExternalStore } from 'react';
import { issueBodyNodes } from '../../../lib/archive-html';
import styles from './IssueBody.module.css';

const noSubscription = () => () => {};

export default function IssueBody({ html }: { html: string }) {
  // The page's address resolves relative links and DOMParser reads the HTML: both exist only in
  // the browser, so a pre-rendered page gets the body once it hydrates (null on the server).
  const base = useSyncExternalStore(
    noSubscription,
    () => window.location.href,
    () => null,
  );
  const nodes = useMemo(() => (base === null ? null : issueBodyNodes(html, base)), [html, base]);
  return <div className={styles.body}>{nodes}</div>;
}
