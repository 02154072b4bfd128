// `/archive/issue/?slug=`: one archived issue (SPEC §2): subject, date, preheader and the sanitised
// body, a link back to the archive and a call to subscribe; unknown or unpublished slugs are "not
// found" (archive_issue() answers only archived, sent campaigns).
import Link from 'next/link';
import { ArrowLeft, ArrowRight } from 'lucide-react';
import SiteLayout from '../../../components/SiteLayout';
import StatusPanel from '../../../components/public/StatusPanel';
import IssueBody from '../../../components/public/archive/IssueBody';
import SubscribeCallout from '../../../components/public/archive/SubscribeCallout';
import publicStyles from '../../../components/public/Public.module.css';
import styles from '../../../components/public/archive/Archive.module.css';
import { issueDate } from '../../../lib/archive';
import { useArchiveIssue } from '../../../lib/use-archive';
import { usePublicSettings } from '../../../lib/use-public-settings';
import { useSearchParam } from '../../../lib/use-search-params';
import RetryButton from '../../../components/public/RetryButton';

export default function IssuePage() {
  const { site } = usePublicSettings();
  const slug = useSearchParam('slug');
  const { issue, error, retry } = useArchiveIssue(slug.value);

  let title = 'Issue';
  let content;
  if (slug.ready && !slug.value) {
    content = <NotFound text="This link names no issue. Pick one from the archive." />;
  } else if (error) {
    content = (
      <StatusPanel
        tone="error"
        title="We could not load this issue"
        actions={<RetryButton onRetry={retry} />}
      >
        <p>{error.message}</p>
      </StatusPanel>
    );
  } else if (issue === null) {
    title = 'Issue not found';
    content = (
      <NotFound text="No published issue has this address. It may have been removed, or the link may be incomplete." />
    );
  } else if (!issue) {
    content = <StatusPanel tone="loading" title="Loading the issue…" />;
  } else {
    title = issue.subject || 'Untitled issue';
    content = (
      <article className={styles.article} aria-labelledby="issue-title">
        <Link href="/archive/" className={styles.back}>
          <ArrowLeft aria-hidden="true" />
          All issues
        </Link>
        <header className={styles.issueHeader}>
          <h1 id="issue-title" className={styles.issueTitle}>
            {title}
          </h1>
          <time className={styles.date} dateTime={issue.finished_at}>
            {issueDate(issue.finished_at)}
          </time>
          {issue.preheader && <p className={styles.issueLead}>{issue.preheader}</p>}
        </header>
        <IssueBody html={issue.body_html} />
        <SubscribeCallout
          siteName={site.name}
          title={`Enjoyed this? Get the next issue${site.name ? ` of ${site.name}` : ''}`}
          text="New issues arrive in your inbox. Unsubscribe from any email with one click."
        />
      </article>
    );
  }

  return <SiteLayout title={title}>{content}</SiteLayout>;
}

function NotFound({ text }: { text: string }) {
  return (
    <StatusPanel
      tone="error"
      title="We could not find that issue"
      actions={
        <>
          <Link href="/archive/" className={publicStyles.button}>
            <ArrowLeft aria-hidden="true" />
            Browse the archive
          </Link>
          <Link href="/" className={publicStyles.secondaryButton}>
            Subscribe
            <ArrowRight aria-hidden="true" />
          </Link>
        </>
      }
    >
      <p>{text}</p>
    </StatusPanel>
  );
}
