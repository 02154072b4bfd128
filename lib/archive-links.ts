// Where an issue lives: its pretty URL `/archive/<slug>/` when the current build pre-rendered it,
// else the client-rendered `/archive/issue/?slug=`, so no link Postbox writes leads to a 404.
// No imports, so the feed edge function (Deno) loads it as is.

/** Path of the JSON the build writes: `{"slugs": [...]}`, the issues it pre-rendered. */
export const PRERENDERED_PATH = '/archive/prerendered.json';
/** Paths of the feeds the build writes and the feed function answers for. */
export const FEED_PATHS = { rss: '/feed.xml', atom: '/atom.xml' } as const;

/** Slugs of routes under /archive/ (the SQL check private.archive_slug_reserved() says the same). */
export const RESERVED_ARCHIVE_SLUGS: ReadonlySet<string> = new Set(['issue', 'index']);

/** The site's base URL without a trailing slash (`https://news.example.com`). */
export function normaliseSiteUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/** The path of one issue, pretty only when `prerendered` has its slug. */
export function issuePath(slug: string, prerendered?: ReadonlySet<string> | null): string {
  if (prerendered?.has(slug) && !RESERVED_ARCHIVE_SLUGS.has(slug)) {
    return `/archive/${encodeURIComponent(slug)}/`;
  }
  return `/archive/issue/?slug=${encodeURIComponent(slug)}`;
}

/** The absolute URL of one issue under the site's URL. */
export function issueUrl(
  siteUrl: string,
  slug: string,
  prerendered?: ReadonlySet<string> | null,
): string {
  return `${normaliseSiteUrl(siteUrl)}${issuePath(slug, prerendered)}`;
}

/** The slugs in a manifest the build wrote, or an empty set for anything else. */
export function readPrerendered(json: unknown): Set<string> {
  const slugs = (json as { slugs?: unknown } | null)?.slugs;
  if (!Array.isArray(slugs)) return new Set();
  return new Set(slugs.filter((s): s is string => typeof s === 'string'));
}
