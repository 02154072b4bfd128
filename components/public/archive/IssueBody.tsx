// An archived issue's body: body_html rebuilt as React elements from the renderer's allowlist
// (lib/archive-html.ts), so nothing in the column can run, styled for reading.
import { useMemo } from 'react';
import { issueBodyNodes } from '../../../lib/archive-html';
import styles from './IssueBody.module.css';

export default function IssueBody({ html }: { html: string }) {
  // Rendered after the issue loads in the browser, so the page's address is known.
  const nodes = useMemo(() => issueBodyNodes(html, window.location.href), [html]);
  return <div className={styles.body}>{nodes}</div>;
}
