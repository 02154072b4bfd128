// Data of the public archive for every visitor: a keyset page of /archive/, the home page's latest
// issues and one issue by slug, all through archive_issues()/archive_issue(), which answer only the
// columns a reader sees (the campaigns table itself is for the team).
import {
  ARCHIVE_PAGE_SIZE,
  LATEST_ISSUES,
  archiveArgs,
  archivePage,
  formatCursor,
  type ArchiveIssue,
  type ArchivePage,
  type ArchivePosition,
  type ArchiveSummary,
} from './archive';
import { publicRest } from './supabase-public';
import { usePublicQuery } from './use-public-query';
import { queryKey, type QueryError } from './query';

function positionKey(position: ArchivePosition) {
  return queryKey('archive', {
    before: position.kind === 'before' ? formatCursor(position.cursor) : undefined,
    after: position.kind === 'after' ? formatCursor(position.cursor) : undefined,
  });
}

/** One page of the archive; `position` null while the query string is not known yet. */
export function useArchivePage(position: ArchivePosition | null): {
  page: ArchivePage | undefined;
  error: QueryError | undefined;
  retry: () => void;
} {
  const { data, error, mutate } = usePublicQuery(position ? positionKey(position) : null, () =>
    publicRest.rpc('archive_issues', archiveArgs(position!, ARCHIVE_PAGE_SIZE)),
  );
  return {
    page: data && position ? archivePage(position, data, ARCHIVE_PAGE_SIZE) : undefined,
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

/** One issue by slug: the row, null when no archived issue has it, undefined while loading. */
export function useArchiveIssue(slug: string | null): {
  issue: ArchiveIssue | null | undefined;
  error: QueryError | undefined;
  retry: () => void;
} {
  const { data, error, mutate } = usePublicQuery(
    slug ? queryKey('archive/issue', { slug }) : null,
    () => publicRest.rpcOne('archive_issue', { p_slug: slug! }),
  );
  return { issue: slug ? data : undefined, error, retry: () => void mutate() };
}
