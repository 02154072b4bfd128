// RSS 2.0 and Atom of the public archive, the same for the build (out/feed.xml, out/atom.xml) and
// the feed edge function. The `feed` library writes the XML; it is passed in (`makeFeed`) because
// the site imports it from node_modules and the function through an npm: specifier.
import { FEED_PATHS, issueUrl, normaliseSiteUrl } from './archive-links.ts';

/** Issues in a feed: the newest ones, as feed readers expect (the archive has the rest). */
export const FEED_ISSUES = 20;

export interface FeedSiteInfo {
  /** The site's name ('' when unknown: the feed is then called "Newsletter"). */
  name: string;
  tagline: string;
  siteUrl: string;
  /** Absolute URL of the logo, or null. */
  logoUrl: string | null;
}

export interface FeedIssue {
  slug: string;
  subject: string;
  preheader: string;
  finished_at: string;
  /** The issue's sanitised HTML, when it was read (the feed then carries the whole issue). */
  body_html?: string | null;
}

/** The part of the `feed` library's options and items this module uses. */
export interface FeedOptionsLike {
  id: string;
  title: string;
  description?: string;
  link: string;
  language: string;
  image?: string;
  favicon: string;
  updated: Date;
  generator: string;
  copyright: string;
  feedLinks: { rss: string; atom: string };
}
export interface FeedItemLike {
  id: string;
  guid: string;
  title: string;
  link: string;
  date: Date;
  published: Date;
  description?: string;
  content?: string;
}
export interface FeedLike {
  addItem(item: FeedItemLike): void;
  rss2(): string;
  atom1(): string;
}

/** The feed of the newest issues (given newest first); links pretty only for `prerendered`. */
export function archiveFeed<F extends FeedLike>(
  makeFeed: (options: FeedOptionsLike) => F,
  site: FeedSiteInfo,
  issues: readonly FeedIssue[],
  prerendered?: ReadonlySet<string> | null,
): F {
  const base = normaliseSiteUrl(site.siteUrl);
  const title = site.name.trim() || 'Newsletter';
  const newest = issues.slice(0, FEED_ISSUES);
  const feed = makeFeed({
    id: `${base}/archive/`,
    title,
    description: site.tagline.trim() || undefined,
    link: `${base}/archive/`,
    language: 'en',
    image: site.logoUrl ?? undefined,
    favicon: `${base}/favicon.svg`,
    // An empty archive's feed is as old as nothing: a fixed date keeps the file stable.
    updated: newest[0] ? new Date(newest[0].finished_at) : new Date(0),
    generator: 'Postbox',
    copyright: `© ${title}`,
    feedLinks: { rss: `${base}${FEED_PATHS.rss}`, atom: `${base}${FEED_PATHS.atom}` },
  });
  for (const issue of newest) {
    const link = issueUrl(base, issue.slug, prerendered);
    // The id stays the same whichever URL serves the issue, so a reader never sees it twice.
    const id = `${base}/archive/issue/?slug=${encodeURIComponent(issue.slug)}`;
    const date = new Date(issue.finished_at);
    feed.addItem({
      id,
      guid: id,
      title: issue.subject || 'Untitled issue',
      link,
      date,
      published: date,
      description: issue.preheader || undefined,
      content: issue.body_html || undefined,
    });
  }
  return feed;
}
