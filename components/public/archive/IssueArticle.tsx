// One issue as readers see it: the way back to the archive, subject, date, preheader, the body and
// the call to subscribe. Shared by the pre-rendered /archive/<slug>/ and /archive/issue/?slug=.
import Link from 'next/link';
import { ArrowLeft } from 'lucide-react';
import { issueDate, type ArchiveIssue } from '../../../lib/archive';
import IssueBody from './IssueBody';
import SubscribeCallout from './SubscribeCallout';
import styles from './Archive.module.css';

export default function IssueArticle({
  issue,
  siteName,
}: {
  issue: ArchiveIssue;
  siteName: string;
}) {
  return (
    <article className={styles.article} aria-labelledby="issue-title">
      <Link href="/archive/" className={styles.back}>
        <ArrowLeft aria-hidden="true" />
        All issues
      </Link>
      <header className={styles.issueHeader}>
        <h1 id="issue-title" className={styles.issueTitle}>
          {issue.subject || 'Untitled issue'}
        </h1>
        <time className={styles.date} dateTime={issue.finished_at}>
          {issueDate(issue.finished_at)}
        </time>
        {issue.preheader && <p className={styles.issueLead}>{issue.preheader}</p>}
      </header>
      <IssueBody html={issue.body_html} />
      <SubscribeCallout
        siteName={siteName}
        title={`Enjoyed this? Get the next issue${siteName ? ` of ${siteName}` : ''}`}
        text="New issues arrive in your inbox. Unsubscribe from any email with one click."
      />
    </article>
  );
}
