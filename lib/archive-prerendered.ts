// In the browser: which issues the build pre-rendered (its /archive/prerendered.json), so a link
// uses the pretty URL only for those and `?slug=` for an issue published after the build.
import { PRERENDERED_PATH, issuePath, readPrerendered } from './archive-links';
import { usePublicQuery } from './use-public-query';

async function loadPrerendered(path: string): Promise<Set<string>> {
  const response = await fetch(path, { headers: { Accept: 'application/json' } });
  // No file (a dev server, an old build): every issue keeps its `?slug=` link.
  if (!response.ok) return new Set();
  return readPrerendered(await response.json());
}

/** The link to an issue: `?slug=` until the list arrives (that page works for every issue). */
export function useIssueHref(): (slug: string) => string {
  const { data } = usePublicQuery(
    PRERENDERED_PATH,
    async () => ({ data: await loadPrerendered(PRERENDERED_PATH), error: null }),
    { revalidateOnFocus: false, revalidateOnReconnect: false, shouldRetryOnError: false },
  );
  return (slug) => issuePath(slug, data);
}
