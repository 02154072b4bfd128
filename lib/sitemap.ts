// sitemap.xml and robots.txt of the static site, written at build time: the public pages a search
// engine should know, every issue the build pre-rendered (by its pretty URL), and nothing private.
import { issueUrl, normaliseSiteUrl } from './archive-links.ts';

/** Public pages worth indexing; admin, token pages and outcome pages are left out. */
export const SITEMAP_PAGES = ['/', '/archive/'] as const;

export interface SitemapIssue {
  slug: string;
  finished_at: string;
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

function xmlText(value: string): string {
  return value.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

function urlEntry(loc: string, lastmod?: string): string {
  const date = lastmod ? `<lastmod>${new Date(lastmod).toISOString()}</lastmod>` : '';
  return `  <url><loc>${xmlText(loc)}</loc>${date}</url>`;
}

/** The sitemap (sitemaps.org 0.9) for the site's pages and the pre-rendered issues. */
export function sitemapXml(
  siteUrl: string,
  issues: readonly SitemapIssue[],
  prerendered: ReadonlySet<string>,
): string {
  const base = normaliseSiteUrl(siteUrl);
  const newest = issues[0]?.finished_at;
  const entries = [
    ...SITEMAP_PAGES.map((path) => urlEntry(`${base}${path}`, path === '/' ? undefined : newest)),
    // An issue the build did not pre-render has only a client-rendered page: no use to a crawler.
    ...issues
      .filter((issue) => prerendered.has(issue.slug))
      .map((issue) => urlEntry(issueUrl(base, issue.slug, prerendered), issue.finished_at)),
  ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n');
}

/** robots.txt: the public site is open, the admin and one-person token pages are not. */
export function robotsTxt(siteUrl: string): string {
  const base = normaliseSiteUrl(siteUrl);
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /admin/',
    'Disallow: /login/',
    'Disallow: /auth/',
    'Disallow: /confirm/',
    'Disallow: /unsubscribe/',
    'Disallow: /preferences/',
    'Disallow: /web/',
    '',
    `Sitemap: ${base}/sitemap.xml`,
    '',
  ].join('\n');
}
