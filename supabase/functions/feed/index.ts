// feed (issue 22): the archive's RSS 2.0 (`?format=rss`, the default) or Atom (`?format=atom`)
// feed, live, for readers that should see an issue before the site is rebuilt. Same XML as the
// build's /feed.xml and /atom.xml (lib/feeds.ts); an issue links to its pretty URL only when the
// deployed site pre-rendered it (its /archive/prerendered.json), else to /archive/issue/?slug=.
import { adminClient } from '../_shared/db.ts';
import { env } from '../_shared/env.ts';
import { AppError, invalidInput } from '../_shared/errors.ts';
import { CORS_HEADERS, serve } from '../_shared/http.ts';
import { PRERENDERED_PATH, readPrerendered } from '../../../lib/archive-links.ts';
import { FEED_ISSUES, archiveFeed, type FeedIssue } from '../../../lib/feeds.ts';
import { Feed } from './deps.ts';

const CONTENT_TYPES = {
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
} as const;
/** The site's list of pre-rendered issues is a nicety: a slow site never holds the feed up. */
const SITE_TIMEOUT_MS = 1500;

async function prerenderedSlugs(siteUrl: string): Promise<Set<string>> {
  try {
    const response = await fetch(`${siteUrl}${PRERENDERED_PATH}`, {
      signal: AbortSignal.timeout(SITE_TIMEOUT_MS),
    });
    return response.ok ? readPrerendered(await response.json()) : new Set();
  } catch {
    return new Set();
  }
}

async function read<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const { data, error } = await adminClient().rpc(name, args);
  if (error) throw new AppError('internal', `${name}: ${error.message}`);
  return data as T;
}

serve(['GET', 'HEAD'], async (req) => {
  const format = new URL(req.url).searchParams.get('format') ?? 'rss';
  if (format !== 'rss' && format !== 'atom') throw invalidInput('format', 'rss or atom');
  const siteUrl = env.siteUrl();
  // The same public functions a visitor's browser calls: only archived, sent issues.
  const [summaries, settings, prerendered] = await Promise.all([
    read<FeedIssue[]>('archive_issues', { p_limit: FEED_ISSUES }),
    read<{ site_name: string; tagline: string; logo_path: string | null }[]>('public_settings', {}),
    prerenderedSlugs(siteUrl),
  ]);
  const newest = summaries.slice(0, FEED_ISSUES);
  const bodies = await Promise.all(
    newest.map((issue) =>
      read<{ body_html: string }[]>('archive_issue', { p_slug: issue.slug }).then(
        (rows) => rows[0]?.body_html ?? null,
      ),
    ),
  );
  const site = settings[0];
  const logo = site?.logo_path?.trim().replace(/^\/+/, '');
  const feed = archiveFeed(
    (options) => new Feed(options),
    {
      name: site?.site_name ?? '',
      tagline: site?.tagline ?? '',
      siteUrl,
      logoUrl: logo ? `${env.supabaseUrl}/storage/v1/object/public/media/${logo}` : null,
    },
    newest.map((issue, i) => ({ ...issue, body_html: bodies[i] })),
    prerendered,
  );
  const xml = format === 'atom' ? feed.atom1() : feed.rss2();
  return new Response(req.method === 'HEAD' ? null : xml, {
    headers: {
      ...CORS_HEADERS,
      'Content-Type': CONTENT_TYPES[format],
      // Readers poll; a few minutes' staleness is fine and spares the database.
      'Cache-Control': 'public, max-age=300',
    },
  });
});
