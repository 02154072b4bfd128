// Build-time reads of the public archive and identity (getStaticPaths/getStaticProps of
// /archive/<slug>/): the same public functions a visitor's browser calls, with the publishable
// key. When Supabase cannot be reached the answers are null and the build goes on without
// pre-rendered issues (every link then uses the client-rendered `?slug=` page).
import type { ArchiveIssue, ArchiveSummary } from '../archive';
import { normaliseSiteUrl } from '../archive-links';
import { SUPABASE_PUBLISHABLE_KEY, SUPABASE_URL } from '../config';
import type { PublicSettingsRow } from '../site';

export interface BuildSource {
  url: string;
  key: string;
}

/** The project the site is built for (NEXT_PUBLIC_SUPABASE_URL and its publishable key). */
export const BUILD_SOURCE: BuildSource = { url: SUPABASE_URL, key: SUPABASE_PUBLISHABLE_KEY };

/**
 * The site's public address for canonical URLs, feeds and the sitemap: POSTBOX_SITE_URL, the
 * same setting the edge functions put in emails, read by the build (never shipped to browsers).
 */
export function buildSiteUrl(env: Record<string, string | undefined> = process.env): string {
  return normaliseSiteUrl(env.POSTBOX_SITE_URL || 'http://127.0.0.1:3000');
}

/** Issues asked for per call (archive_issues() answers at most 50 + 1). */
const PAGE = 50;
/** A build should not hang on a dead host: each call gives up after this long. */
const TIMEOUT_MS = 10_000;

/** One public SQL function through PostgREST; null (and a warning) when it cannot answer. */
async function rpc<T>(source: BuildSource, name: string, args: object): Promise<T | null> {
  try {
    const response = await fetch(`${source.url}/rest/v1/rpc/${name}`, {
      method: 'POST',
      headers: {
        apikey: source.key,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: JSON.stringify(args),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) {
      console.warn(`build: ${name} answered ${response.status}; building without it`);
      return null;
    }
    return (await response.json()) as T;
  } catch (error) {
    console.warn(`build: ${name} unreachable at ${source.url} (${String(error)}); building without it`);
    return null;
  }
}

/** Every published issue, newest first, or null when the archive cannot be read. */
export async function fetchArchiveSummaries(
  source: BuildSource = BUILD_SOURCE,
): Promise<ArchiveSummary[] | null> {
  const all: ArchiveSummary[] = [];
  for (;;) {
    const last = all[all.length - 1];
    const rows = await rpc<ArchiveSummary[]>(source, 'archive_issues', {
      p_limit: PAGE,
      ...(last ? { p_before_at: last.finished_at, p_before_id: last.id } : {}),
    });
    if (!rows) return null;
    all.push(...rows.slice(0, PAGE));
    if (rows.length <= PAGE) return all;
  }
}

/** One issue by slug: the row, null when no published issue has it, undefined when unreachable. */
export async function fetchArchiveIssue(
  slug: string,
  source: BuildSource = BUILD_SOURCE,
): Promise<ArchiveIssue | null | undefined> {
  const rows = await rpc<ArchiveIssue[]>(source, 'archive_issue', { p_slug: slug });
  if (!rows) return undefined;
  return rows[0] ?? null;
}

/** The site's public identity, or null when it cannot be read. */
export async function fetchPublicSettings(
  source: BuildSource = BUILD_SOURCE,
): Promise<PublicSettingsRow | null> {
  const rows = await rpc<PublicSettingsRow[]>(source, 'public_settings', {});
  return rows?.[0] ?? null;
}

/** The public URL of a file in the media bucket (the logo's `logo_path`). */
export function mediaUrl(path: string, source: BuildSource = BUILD_SOURCE): string {
  const clean = path.trim().replace(/^\/+/, '');
  return `${source.url}/storage/v1/object/public/media/${clean.split('/').map(encodeURIComponent).join('/')}`;
}
