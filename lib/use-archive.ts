// Data of the public archive for every visitor: a keyset page of /archive/ and the home page's latest
// issues, through archive_issues(), which answers only the columns a reader sees (the campaigns
// table itself is for the team). One issue by slug: lib/use-archive-issue.ts.
import {
  ARCHIVE_PAGE_SIZE,
  LATEST_ISSUES,
  archiveArgs,
  archivePage,
  formatCursor,
  type ArchivePage,
  type ArchivePosition,
  type ArchiveSummary,
} from './archive';
import { useContext } from 'react';
import { publicRest } from './supabase-public';
import { PublicFallbackContext, usePublicQuery } from './use-public-query';
import { queryKey, type QueryError } from './query';

function positionKey(position: ArchivePosition) {
  return queryKey('archive', {
    before: position.kind === 'before' ? formatCursor(position.cursor) : undefined,
    after: position.kind === 'after' ? formatCursor(position.cursor) : undefined,
  });
}

const NEWEST: ArchivePosition = { kind: 'newest' };

/** SWR key of the newest page of /archive/ (also filled at build time, lib/build/public-props.ts). */
export const ARCHIVE_NEWEST_KEY = positionKey(NEWEST);

/**
 * One page of the archive; `position` null while the query string is not known yet (the exported
 * HTML and hydration). Meanwhile the page is the newest one as the build read it, if it did, so the
 * exported HTML lists the issues and hydration keeps them; nothing is read until the position is
 * known, and a `?before=`/`?after=` page is then read as before.
 */
export function useArchivePage(position: ArchivePosition | null): {
  page: ArchivePage | undefined;
  error: QueryError | undefined;
  retry: () => void;
} {
  const fallback = useContext(PublicFallbackContext);
  const { data, error, mutate } = usePublicQuery(position ? positionKey(position) : null, () =>
    publicRest.rpc('archive_issues', archiveArgs(position!, ARCHIVE_PAGE_SIZE)),
  );
  const rows = position ? data : (fallback[ARCHIVE_NEWEST_KEY] as ArchiveSummary[] | undefined);
  return {
    page: rows ? archivePage(position ?? NEWEST, rows, ARCHIVE_PAGE_SIZE) : undefined,
    error,
    retry: () => void mutate(),
  };
}

/** SWR key of the home page's latest issues (also filled at build time, lib/build/public-props.ts). */
export const LATEST_ISSUES_KEY = queryKey('archive/latest');

/** The newest few issues for the home page. */
export function useLatestIssues(): {
  issues: ArchiveSummary[] | undefined;
  error: QueryError | undefined;
  retry: () => void;
} {
  const { data, error, mutate } = usePublicQuery(LATEST_ISSUES_KEY, () =>
    publicRest.rpc('archive_issues', { p_limit: LATEST_ISSUES }),
  );
  // The function answers one row more than asked, to tell whether more exist.
  return { issues: data?.slice(0, LATEST_ISSUES), error, retry: () => void mutate() };
}
