// The site's public identity from `settings` (anon may select exactly these four columns).
import { siteIdentity, PUBLIC_SETTINGS_COLUMNS, type SiteIdentity } from './site';
import { supabase } from './supabase';
import { queryKey, useQuery, type QueryError } from './use-query';

export const PUBLIC_SETTINGS_KEY = queryKey('public-settings');

export function usePublicSettings(): {
  site: SiteIdentity;
  isLoading: boolean;
  error: QueryError | undefined;
} {
  const { data, error, isLoading } = useQuery(
    PUBLIC_SETTINGS_KEY,
    () => supabase.from('settings').select(PUBLIC_SETTINGS_COLUMNS).maybeSingle(),
    // The identity rarely changes; one read per visit is enough.
    { revalidateOnFocus: false, revalidateOnReconnect: false },
  );
  return { site: siteIdentity(data), isLoading, error };
}
