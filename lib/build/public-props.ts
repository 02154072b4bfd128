// getStaticProps of the public pages: the site's identity and public lists read at build time and
// handed to SWR as `fallback` (pages/_app.tsx), so the exported HTML already shows them and the
// browser's revalidation changes nothing when nothing changed. Keys are the hooks' own keys.
import { ARCHIVE_PAGE_SIZE, LATEST_ISSUES } from '../archive';
import { PUBLIC_LIST_COLUMNS } from '../public-lists';
import type { PublicSettingsRow } from '../site';
import { queryKey } from '../query';
import { fetchAtBuild } from './fetch-public';

/** SWR keys → data, as `<SWRConfig value={{ fallback }}>` takes them. */
export type SwrFallback = Record<string, unknown>;

export interface PublicPageProps {
  fallback: SwrFallback;
}

// The hooks' keys, spelled here too so this module never pulls the browser client into a build
// worker; lib/build/public-props.test.ts checks they match the hooks'.
export const BUILD_KEYS = {
  settings: queryKey('public-settings'),
  lists: queryKey('public-lists'),
  latest: queryKey('archive/latest'),
  archive: queryKey('archive'),
  count: queryKey('public-subscriber-count'),
} as const;

/** The settings row as `rpc('public_settings').maybeSingle()` gives it; undefined when unreachable. */
export async function settingsAtBuild(): Promise<PublicSettingsRow | null | undefined> {
  const rows = await fetchAtBuild<PublicSettingsRow[]>('rest/v1/rpc/public_settings');
  return rows === null ? undefined : (rows[0] ?? null);
}

/** The public lists as usePublicLists() reads them; null when unreachable. */
export function listsAtBuild<T = unknown>(): Promise<T[] | null> {
  const columns = PUBLIC_LIST_COLUMNS.replace(/\s+/g, '');
  return fetchAtBuild<T[]>(
    `rest/v1/lists?select=${columns}&visibility=eq.public&order=created_at.asc,slug.asc`,
  );
}

/** archive_issues() as the anon role: `p_limit` issues and one more (whether more exist). */
function issuesAtBuild(limit: number): Promise<unknown[] | null> {
  return fetchAtBuild<unknown[]>('rest/v1/rpc/archive_issues', {
    method: 'POST',
    body: { p_limit: limit },
  });
}

/**
 * The fallback every public page gets: identity and public lists (the lists only where a form
 * uses them), the home page's latest issues and subscriber count, and the archive's newest page.
 * Unreachable parts are left out, and the hooks then load them in the browser as before.
 */
export async function publicFallback(
  include: { lists?: boolean; latest?: boolean; count?: boolean; archive?: boolean } = {},
): Promise<SwrFallback> {
  const [settings, lists, latest, count, archive] = await Promise.all([
    settingsAtBuild(),
    include.lists ? listsAtBuild() : Promise.resolve(null),
    include.latest ? issuesAtBuild(LATEST_ISSUES) : Promise.resolve(null),
    // null unless the owner shows the count; a number (or null) is what the browser reads too.
    include.count
      ? fetchAtBuild<number | string | null>('rest/v1/rpc/public_subscriber_count', {
          method: 'POST',
        })
      : Promise.resolve(undefined),
    include.archive ? issuesAtBuild(ARCHIVE_PAGE_SIZE) : Promise.resolve(null),
  ]);
  const fallback: SwrFallback = {};
  if (settings !== undefined) fallback[BUILD_KEYS.settings] = settings;
  if (lists !== null) fallback[BUILD_KEYS.lists] = lists;
  if (latest !== null) fallback[BUILD_KEYS.latest] = latest;
  // Only when the owner shows it: the hook's key is null otherwise.
  if (count !== null && count !== undefined) fallback[BUILD_KEYS.count] = count;
  if (archive !== null) fallback[BUILD_KEYS.archive] = archive;
  return fallback;
}

/** `export const getStaticProps = identityStaticProps;` on a public page that shows the identity. */
export async function identityStaticProps(): Promise<{ props: PublicPageProps }> {
  return { props: { fallback: await publicFallback() } };
}

/** The identity and the newest page of the archive, for `/archive/`. */
export async function archiveStaticProps(): Promise<{ props: PublicPageProps }> {
  return { props: { fallback: await publicFallback({ archive: true }) } };
}

/** The same with the public lists, for pages with a signup form (the embed). */
export async function formStaticProps(): Promise<{ props: PublicPageProps }> {
  return { props: { fallback: await publicFallback({ lists: true }) } };
}
