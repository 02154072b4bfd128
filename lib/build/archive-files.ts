// The build's files beside the pages: RSS and Atom feeds, sitemap.xml, robots.txt and the list of
// pre-rendered issues the browser reads (lib/archive-links.ts). `next build` runs getStaticPaths of
// /archive/<slug>/, which calls this; the files go to public/ (git-ignored), which the export then
// copies into out/ like any other static file.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Feed } from 'feed';
import type { ArchiveSummary } from '../archive';
import { FEED_PATHS, PRERENDERED_PATH } from '../archive-links';
import { FEED_ISSUES, archiveFeed, type FeedIssue } from '../feeds';
import { robotsTxt, sitemapXml } from '../sitemap';
import type { PublicSettingsRow } from '../site';
import { RESERVED_ARCHIVE_SLUGS } from '../archive-links';
import { buildSiteUrl, fetchArchiveIssue, fetchArchiveSummaries, mediaUrl } from './archive-data';
import { settingsAtBuild } from './public-props';

export interface ArchiveFiles {
  [path: string]: string;
}

/** The files' contents for an archive (newest first) and the slugs this build pre-renders. */
export async function archiveFiles(input: {
  siteUrl: string;
  settings: PublicSettingsRow | null;
  issues: readonly ArchiveSummary[];
  prerendered: ReadonlySet<string>;
}): Promise<ArchiveFiles> {
  // Feed readers get the whole issue: the newest ones' bodies, read one by one.
  const feedIssues: FeedIssue[] = [];
  for (const summary of input.issues.slice(0, FEED_ISSUES)) {
    const full = await fetchArchiveIssue(summary.slug);
    feedIssues.push({ ...summary, body_html: full?.body_html ?? null });
  }
  const logo = input.settings?.logo_path?.trim();
  const feed = archiveFeed(
    (options) => new Feed(options),
    {
      name: input.settings?.site_name ?? '',
      tagline: input.settings?.tagline ?? '',
      siteUrl: input.siteUrl,
      logoUrl: logo ? mediaUrl(logo) : null,
    },
    feedIssues,
    input.prerendered,
  );
  return {
    [FEED_PATHS.rss]: feed.rss2(),
    [FEED_PATHS.atom]: feed.atom1(),
    '/sitemap.xml': sitemapXml(input.siteUrl, input.issues, input.prerendered),
    '/robots.txt': robotsTxt(input.siteUrl),
    [PRERENDERED_PATH]: `${JSON.stringify({ slugs: [...input.prerendered] })}\n`,
  };
}

/** Writes the files under `dir` (public/ in a build). */
export async function writeArchiveFiles(dir: string, files: ArchiveFiles): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const target = join(dir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
}

/**
 * What one build pre-renders: every published issue's slug (but a route's name, which keeps its
 * `?slug=` page) and the files that go with them. No issues when Supabase cannot be reached.
 */
export async function prerenderArchive(
  siteUrl: string = buildSiteUrl(),
): Promise<{ slugs: string[]; files: ArchiveFiles }> {
  const [issues, settings] = await Promise.all([fetchArchiveSummaries(), settingsAtBuild()]);
  const slugs = (issues ?? []).map((i) => i.slug).filter((s) => !RESERVED_ARCHIVE_SLUGS.has(s));
  const prerendered = new Set(slugs);
  const files = await archiveFiles({
    siteUrl,
    settings: settings ?? null,
    issues: issues ?? [],
    prerendered,
  });
  return { slugs, files };
}
