// One archived issue by slug, through archive_issue() (only archived, sent campaigns, only the
// columns a reader sees). Its own module, used by the issue pages alone: the first read takes the
// response the page's HTML may have started already (lib/early-read.ts), so no other page carries
// that code.
import type { ArchiveIssue } from './archive';
import { takeEarlyRpc } from './early-read';
import { publicRest } from './supabase-public';
import { usePublicQuery } from './use-public-query';
import { queryKey, type QueryError } from './query';

/** The row, null when no archived issue has this slug, undefined while loading. */
export function useArchiveIssue(slug: string | null): {
  issue: ArchiveIssue | null | undefined;
  error: QueryError | undefined;
  retry: () => void;
} {
  const { data, error, mutate } = usePublicQuery(
    slug ? queryKey('archive/issue', { slug }) : null,
    () => {
      const args = { p_slug: slug! };
      return publicRest.rpcOne('archive_issue', args, takeEarlyRpc('archive_issue', args));
    },
  );
  return { issue: slug ? data : undefined, error, retry: () => void mutate() };
}
