// `/archive/issue/?slug=`: one archived issue (SPEC §2), read in the browser, so an issue published
// after the build opens too (the build pre-renders the others at /archive/<slug>/): subject, date, preheader and the sanitised
// body, a link back to the archive and a call to subscribe; unknown or unpublished slugs are "not
// found" (archive_issue() answers only archived, sent campaigns).
import { ArrowLeft, ArrowRight } from 'lucide-react';
import SiteLayout from '../../../components/SiteLayout';
import StatusPanel from '../../../components/public/StatusPanel';
import FeedLinks from '../../../components/public/archive/FeedLinks';
import IssueArticle from '../../../components/public/archive/IssueArticle';
import publicStyles from '../../../components/public/Public.module.css';
import { useArchiveIssue } from '../../../lib/use-archive-issue';
import { usePublicSettings } from '../../../lib/use-public-settings';
import { useSearchParam } from '../../../lib/use-search-params';
import RetryButton from '../../../components/public/RetryButton';
import { identityStaticProps } from '../../../lib/build/public-props';
import { earlyRpcScript } from '../../../lib/early-read';
import { rpcHeaders } from '../../../lib/supabase-public';

// The exported HTML asks for the issue itself, before the scripts below have downloaded: the read
// useArchiveIssue() makes then takes that response (lib/early-read.ts).
const EARLY_READ = earlyRpcScript('archive_issue', 'slug', 'p_slug', rpcHeaders());

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
    content = <IssueArticle issue={issue} siteName={site.name} />;
  }

  return (
    <>
      <script dangerouslySetInnerHTML={{ __html: EARLY_READ }} />
      <SiteLayout title={title}>
        <FeedLinks siteName={site.name} />
        {content}
      </SiteLayout>
    </>
  );
}

function NotFound({ text }: { text: string }) {
  return (
    <StatusPanel
      tone="error"
      title="We could not find that issue"
      actions={
        <>
          <a href="/archive/" className={publicStyles.button}>
            <ArrowLeft aria-hidden="true" />
            Browse the archive
          </a>
          <a href="/" className={publicStyles.secondaryButton}>
            Subscribe
            <ArrowRight aria-hidden="true" />
          </a>
        </>
      }
    >
      <p>{text}</p>
    </StatusPanel>
  );
}

// The site's identity in the exported HTML (read at build time; see lib/build/public-props.ts).
export const getStaticProps = identityStaticProps;
