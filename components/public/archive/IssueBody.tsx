// An archived issue's body: body_html rebuilt as React elements from the renderer's allowlist
// (lib/archive-html.ts), so nothing in the column can run, styled for reading.
import { useMemo, useSyncExternalStore } from 'react';
import { issueBodySafeNodes, renderSafeNodes, type SafeNode } from '../../../lib/archive-html';
import styles from './IssueBody.module.css';

const noSubscription = () => () => {};

export default function IssueBody({
  html,
  built,
}: {
  html: string;
  /** The same conversion made at build time (/archive/<slug>/), for the body_html it was made of. */
  built?: { html: string; nodes: SafeNode[] } | null;
}) {
  // The page's address resolves relative links and DOMParser reads the HTML: both exist only in
  // the browser, so without the build's nodes a page gets the body once it hydrates (null on the
  // server).
  const base = useSyncExternalStore(
    noSubscription,
    () => window.location.href,
    () => null,
  );
  // The build's nodes while the body is unchanged: the exported HTML has it and hydration keeps it
  // as it is; a body edited since the build is converted again in the browser.
  const prebuilt = built && built.html === html ? built.nodes : null;
  const nodes = useMemo(
    () =>
      prebuilt
        ? renderSafeNodes(prebuilt)
        : base === null
          ? null
          : renderSafeNodes(issueBodySafeNodes(html, base)),
    [prebuilt, html, base],
  );
  return <div className={styles.body}>{nodes}</div>;
}
