// One issue as readers see it: the way back to the archive, subject, date, preheader, the body and
// the call to subscribe. Shared by the pre-rendered /archive/<slug>/ and /archive/issue/?slug=.
import { ArrowLeft } from 'lucide-react';
import { issueDate, type ArchiveIssue } from '../../../lib/archive';
import type { SafeNode } from '../../../lib/archive-html';
import IssueBody from './IssueBody';
import SubscribeCallout from './SubscribeCallout';
import styles from './Archive.module.css';

export default function IssueArticle({
  issue,
  siteName,
  builtBody,
}: {
  issue: ArchiveIssue;
  siteName: string;
  /** The body as the build converted it (pre-rendered pages), with the body_html it came from. */
  builtBody?: { html: string; nodes: SafeNode[] } | null;
}) {
  return (
    <article className={styles.article} aria-labelledby="issue-title">
      <a href="/archive/" className={styles.back}>
        <ArrowLeft aria-hidden="true" />
        All issues
      </a>
      <header className={styles.issueHeader}>
        <h1 id="issue-title" className={styles.issueTitle}>
          {issue.subject || 'Untitled issue'}
        </h1>
        <time className={styles.date} dateTime={issue.finished_at}>
          {issueDate(issue.finished_at)}
        </time>
        {issue.preheader && <p className={styles.issueLead}>{issue.preheader}</p>}
      </header>
      <IssueBody html={issue.body_html} built={builtBody} />
      <SubscribeCallout
        siteName={siteName}
        title={`Enjoyed this? Get the next issue${siteName ? ` of ${siteName}` : ''}`}
        text="New issues arrive in your inbox. Unsubscribe from any email with one click."
      />
    </article>
  );
}
