// `/archive/`: the public archive (SPEC §2): archived sent campaigns, newest first, 20 a page by
// keyset (`?before=` older than an issue, `?after=` newer), each with its date and preheader.
import Link from 'next/link';
import { useEffect, useRef } from 'react';
import { ArrowLeft, ArrowRight } from 'lucide-react';
import SiteLayout from '../../components/SiteLayout';
import StatusPanel from '../../components/public/StatusPanel';
import FeedLinks from '../../components/public/archive/FeedLinks';
import IssueList from '../../components/public/archive/IssueList';
import SubscribeCallout from '../../components/public/archive/SubscribeCallout';
import publicStyles from '../../components/public/Public.module.css';
import styles from '../../components/public/archive/Archive.module.css';
import { archivePosition } from '../../lib/archive';
import { useArchivePage } from '../../lib/use-archive';
import { usePublicSettings } from '../../lib/use-public-settings';
import { useSearchParam } from '../../lib/use-search-params';
import RetryButton from '../../components/public/RetryButton';
import { archiveStaticProps } from '../../lib/build/public-props';

export default function ArchivePage() {
  const { site } = usePublicSettings();
  const before = useSearchParam('before');
  const after = useSearchParam('after');
  // Until the query string is known (the exported HTML, hydration), the newest page as the build
  // read it; then the page the URL asks for (`?before=`/`?after=` are read after hydration).
  const position = before.ready ? archivePosition(before.value, after.value) : null;
  const { page, error, retry } = useArchivePage(position);
  // After "Newer" or "Older", keyboard and screen-reader users start again at the page's heading.
  const heading = useRef<HTMLHeadingElement>(null);
  const paged = useRef(false);
  useEffect(() => {
    if (page && paged.current) {
      paged.current = false;
      heading.current?.focus();
    }
  }, [page]);
  const onPage = () => {
    paged.current = true;
  };

  let content;
  if (error) {
    content = (
      <StatusPanel
        tone="error"
        title="We could not load the archive"
        actions={<RetryButton onRetry={retry} />}
      >
        <p>{error.message}</p>
      </StatusPanel>
    );
  } else if (!page) {
    content = <StatusPanel tone="loading" title="Loading the archive…" />;
  } else if (page.issues.length === 0 && (position?.kind ?? 'newest') === 'newest') {
    content = (
      <StatusPanel
        tone="info"
        title="No issues yet"
        actions={
          <Link href="/" className={publicStyles.button}>
            Subscribe for the first one
            <ArrowRight aria-hidden="true" />
          </Link>
        }
      >
        <p>
          Past issues of {site.name || 'this newsletter'} will appear here once the first one is
          sent.
        </p>
      </StatusPanel>
    );
  } else if (page.issues.length === 0) {
    // A cursor from an old link whose neighbours are gone.
    content = (
      <StatusPanel
        tone="info"
        title="No issues on this page"
        actions={
          <Link href="/archive/" className={publicStyles.button}>
            See the newest issues
            <ArrowRight aria-hidden="true" />
          </Link>
        }
      />
    );
  } else {
    content = (
      <>
        <header className={styles.header}>
          <h1 ref={heading} tabIndex={-1} className={styles.title}>
            Archive
          </h1>
          <p className={styles.lead}>
            Every past issue{site.name ? ` of ${site.name}` : ''}, newest first.
          </p>
        </header>
        <IssueList issues={page.issues} headingLevel={2} label="Issues" />
        {(page.newer || page.older) && (
          <nav className={styles.pager} aria-label="Archive pages">
            {page.newer && (
              <Link
                href={{ pathname: '/archive/', query: { after: page.newer } }}
                className={`${publicStyles.secondaryButton} ${styles.newer}`}
                onClick={onPage}
              >
                <ArrowLeft aria-hidden="true" />
                Newer issues
              </Link>
            )}
            {page.older && (
              <Link
                href={{ pathname: '/archive/', query: { before: page.older } }}
                className={publicStyles.secondaryButton}
                onClick={onPage}
              >
                Older issues
                <ArrowRight aria-hidden="true" />
              </Link>
            )}
          </nav>
        )}
      </>
    );
  }

  return (
    <SiteLayout title="Archive">
      <FeedLinks siteName={site.name} />
      {content}
      {page && page.issues.length > 0 && (
        <div className={styles.latest}>
          <SubscribeCallout
            siteName={site.name}
            title="Get the next issue by email"
            text={site.tagline || 'New issues arrive in your inbox.'}
          />
        </div>
      )}
    </SiteLayout>
  );
}

// The site's identity and the newest issues in the exported HTML (read at build time; see
// lib/build/public-props.ts): the list is the page's largest element, painted before any script.
export const getStaticProps = archiveStaticProps;
