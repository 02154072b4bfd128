// Build-time reads of the public archive (getStaticPaths/getStaticProps of /archive/<slug>/): the
// same public functions a visitor's browser calls, through fetchAtBuild (publishable key; null when
// Supabase cannot be reached, and the build goes on without pre-rendered issues, so every link
// then uses the client-rendered `?slug=` page).
import type { ArchiveIssue, ArchiveSummary } from '../archive';
import { normaliseSiteUrl } from '../archive-links';
import { SUPABASE_URL } from '../config';
import { fetchAtBuild } from './fetch-public';

/**
 * The site's public address for canonical URLs, feeds and the sitemap: POSTBOX_SITE_URL, the
 * same setting the edge functions put in emails, read by the build (never shipped to browsers).
 */
export function buildSiteUrl(env: Record<string, string | undefined> = process.env): string {
  return normaliseSiteUrl(env.POSTBOX_SITE_URL || 'http://127.0.0.1:3000');
}

/** Issues asked for per call (archive_issues() answers at most 50 + 1). */
const PAGE = 50;

const rpc = <T>(name: string, body: object) =>
  fetchAtBuild<T>(`rest/v1/rpc/${name}`, { method: 'POST', body });

/** Every published issue, newest first, or null when the archive cannot be read. */
export async function fetchArchiveSummaries(): Promise<ArchiveSummary[] | null> {
  const all: ArchiveSummary[] = [];
  for (;;) {
    const last = all[all.length - 1];
    const rows = await rpc<ArchiveSummary[]>('archive_issues', {
      p_limit: PAGE,
      ...(last ? { p_before_at: last.finished_at, p_before_id: last.id } : {}),
    });
    if (!rows) return null;
    all.push(...rows.slice(0, PAGE));
    if (rows.length <= PAGE) return all;
  }
}

/** One issue by slug: the row, null when no published issue has it, undefined when unreachable. */
export async function fetchArchiveIssue(slug: string): Promise<ArchiveIssue | null | undefined> {
  const rows = await rpc<ArchiveIssue[]>('archive_issue', { p_slug: slug });
  if (!rows) return undefined;
  return rows[0] ?? null;
}

/** The public URL of a file in the media bucket (the logo's `logo_path`). */
export function mediaUrl(path: string): string {
  const clean = path.trim().replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
  return `${SUPABASE_URL}/storage/v1/object/public/media/${clean}`;
}
