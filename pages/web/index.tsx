// `/web/?token=`: a campaign's web version, the "View in browser" link of every email (issue 21).
// web-version answers the email as nobody's copy (no reader's values or links) as JSON; the email's
// own document is shown in a sandboxed iframe, since no function may serve an HTML page.
import { ArrowRight } from 'lucide-react';
import SiteLayout from '../../components/SiteLayout';
import StatusPanel from '../../components/public/StatusPanel';
import RetryButton from '../../components/public/RetryButton';
import WebVersionFrame from '../../components/public/archive/WebVersionFrame';
import publicStyles from '../../components/public/Public.module.css';
import styles from '../../components/public/archive/Archive.module.css';
import { issueDate } from '../../lib/archive';
import { useSearchParam } from '../../lib/use-search-params';
import { useWebVersion } from '../../lib/use-web-version';
import { identityStaticProps } from '../../lib/build/public-props';

export default function WebVersionPage() {
  const token = useSearchParam('token');
  const { data, error, retry } = useWebVersion(token.value);

  let title = 'Email';
  let content;
  if ((token.ready && !token.value) || ['token_invalid', 'not_found'].includes(error?.code ?? '')) {
    title = 'Email not found';
    content = (
      <StatusPanel
        tone="error"
        title="We could not find this email"
        actions={
          <a href="/archive/" className={publicStyles.button}>
            Browse the archive
            <ArrowRight aria-hidden="true" />
          </a>
        }
      >
        <p>The link may be incomplete, or the email has not been sent yet.</p>
      </StatusPanel>
    );
  } else if (error) {
    content = (
      <StatusPanel
        tone="error"
        title="We could not load this email"
        actions={<RetryButton onRetry={() => void retry()} />}
      >
        <p>{error.message}</p>
      </StatusPanel>
    );
  } else if (!data) {
    content = <StatusPanel tone="loading" title="Loading the email…" />;
  } else {
    title = data.subject || 'Untitled email';
    content = (
      <article className={styles.article} aria-labelledby="web-title">
        <header className={styles.issueHeader}>
          <h1 id="web-title" className={styles.issueTitle}>
            {title}
          </h1>
          <time className={styles.date} dateTime={data.sent_at}>
            {issueDate(data.sent_at)}
          </time>
        </header>
        <WebVersionFrame html={data.html} title={`The email: ${title}`} />
      </article>
    );
  }
  return <SiteLayout title={title}>{content}</SiteLayout>;
}

// The site's identity in the exported HTML (read at build time; see lib/build/public-props.ts).
export const getStaticProps = identityStaticProps;
