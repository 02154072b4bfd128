// The site's public identity: the public columns of `settings` through public_settings(), which
// answers signed-in non-members too (the table itself shows them no row).
import { siteIdentity, type SiteIdentity } from './site';
import { publicRest } from './supabase-public';
import { usePublicQuery } from './use-public-query';
import { queryKey, type QueryError } from './query';

export const PUBLIC_SETTINGS_KEY = queryKey('public-settings');

export function usePublicSettings(): {
  site: SiteIdentity;
  isLoading: boolean;
  error: QueryError | undefined;
  retry: () => void;
} {
  const { data, error, isLoading, mutate } = usePublicQuery(
    PUBLIC_SETTINGS_KEY,
    () => publicRest.rpcOne('public_settings'),
    // The identity rarely changes; one read per visit is enough.
    { revalidateOnFocus: false, revalidateOnReconnect: false },
  );
  return { site: siteIdentity(data), isLoading, error, retry: () => void mutate() };
}
