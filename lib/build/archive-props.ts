// getStaticProps of /archive/<slug>/: the issue as published when the site is built, its body as
// the page renders it (so it is in the exported HTML), its head (lib/archive-meta.ts) and the
// identity fallback every public page gets.
import type { ArchiveIssue } from '../archive';
import type { SafeNode } from '../archive-html';
import { issueMeta, type IssueMeta } from '../archive-meta';
import { siteIdentity, type PublicSettingsRow } from '../site';
import { issueBodySafeNodesAtBuild } from './archive-body';
import { buildSiteUrl, fetchArchiveIssue, mediaUrl } from './archive-data';
import { BUILD_KEYS, publicFallback, type PublicPageProps } from './public-props';

export interface IssuePageProps extends PublicPageProps {
  slug: string;
  /** The issue as the build read it; null when it was unpublished between paths and props. */
  issue: ArchiveIssue | null;
  meta: IssueMeta | null;
  /** The issue's body_html as safe nodes (lib/archive-html.ts), links resolved on its canonical URL. */
  body: SafeNode[] | null;
}

export async function issuePageProps(slug: string): Promise<IssuePageProps> {
  const [issue, fallback] = await Promise.all([fetchArchiveIssue(slug), publicFallback()]);
  if (!issue) return { fallback, slug, issue: null, meta: null, body: null };
  // The identity in the exported HTML too (header, footer), as on the other public pages.
  const settings = fallback[BUILD_KEYS.settings] as PublicSettingsRow | null | undefined;
  const logo = settings?.logo_path?.trim();
  const meta = issueMeta({
    siteUrl: buildSiteUrl(),
    siteName: settings ? siteIdentity(settings).name : '',
    logoUrl: logo ? mediaUrl(logo) : null,
    issue,
  });
  return {
    fallback,
    slug,
    issue,
    meta,
    body: issueBodySafeNodesAtBuild(issue.body_html, meta.canonical),
  };
}
