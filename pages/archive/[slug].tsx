// `/archive/<slug>/`: an issue pre-rendered at build time (issue 22) with its own title,
// description, canonical URL and cards, for every issue published when the site was built. The
// browser reads the issue again: a change since the build shows, an issue unpublished since then
// is "not found". Issues published later open at /archive/issue/?slug= (links choose by the
// build's list, lib/archive-links.ts), so this route needs no fallback.
import { join } from 'node:path';
import type { GetStaticPaths, GetStaticProps } from 'next';
import Head from 'next/head';
import { ArrowLeft } from 'lucide-react';
import SiteLayout from '../../components/SiteLayout';
import StatusPanel from '../../components/public/StatusPanel';
import FeedLinks from '../../components/public/archive/FeedLinks';
import IssueArticle from '../../components/public/archive/IssueArticle';
import publicStyles from '../../components/public/Public.module.css';
import { issueHeadTags } from '../../lib/archive-head';
import { prerenderArchive, writeArchiveFiles } from '../../lib/build/archive-files';
import { issuePageProps, type IssuePageProps } from '../../lib/build/archive-props';
import { siteTitle } from '../../lib/site';
import { useArchiveIssue } from '../../lib/use-archive-issue';
import { usePublicSettings } from '../../lib/use-public-settings';

export default function PrerenderedIssuePage({ slug, issue: built, meta, body }: IssuePageProps) {
  const { site } = usePublicSettings();
  const live = useArchiveIssue(slug);
  // The build's copy until the browser's read answers; a failed read keeps it.
  const issue = live.issue === undefined ? built : live.issue;
  const siteName = site.name || meta?.siteName || '';
  const title = issue ? issue.subject || 'Untitled issue' : 'Issue not found';
  return (
    <SiteLayout title={title}>
      <Head>
        <title>{siteTitle(title, siteName)}</title>
        {issue && meta && issueHeadTags(meta)}
      </Head>
      <FeedLinks siteName={siteName} />
      {issue ? (
        <IssueArticle
          issue={issue}
          siteName={siteName}
          builtBody={built && body ? { html: built.body_html, nodes: body } : null}
        />
      ) : (
        <StatusPanel
          tone="error"
          title="We could not find that issue"
          actions={
            <a href="/archive/" className={publicStyles.button}>
              <ArrowLeft aria-hidden="true" />
              Browse the archive
            </a>
          }
        >
          <p>This issue is no longer published.</p>
        </StatusPanel>
      )}
    </SiteLayout>
  );
}

export const getStaticPaths: GetStaticPaths<{ slug: string }> = async () => {
  const { slugs, files } = await prerenderArchive();
  // Feeds, sitemap, robots.txt and the list of these slugs, beside the pages in the export.
  await writeArchiveFiles(join(process.cwd(), 'public'), files);
  return { paths: slugs.map((slug) => ({ params: { slug } })), fallback: false };
};

export const getStaticProps: GetStaticProps<IssuePageProps, { slug: string }> = async ({
  params,
}) => ({ props: await issuePageProps(params!.slug) });
