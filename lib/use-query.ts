// The SWR wrapper the team's data hooks are built on: predictable string keys, and a failed
// Supabase call becomes a thrown QueryError (never `undefined` data that looks like "empty"). The
// public pages' hooks use lib/use-public-query.ts, the same contract without SWR's weight.
import useSWR, { type SWRConfiguration, type SWRResponse } from 'swr';
import { unwrap, type QueryError, type SupabaseResult } from './query';

export * from './query';

/**
 * `useQuery(queryKey('lists', { visibility: 'public' }), () => supabase.from('lists').select())`.
 * A `null` key skips the fetch (e.g. until a query-string parameter is known).
 */
export function useQuery<T>(
  key: string | null,
  fetcher: () => PromiseLike<SupabaseResult<T>>,
  config?: SWRConfiguration<T | null, QueryError>,
): SWRResponse<T | null, QueryError> {
  return useSWR<T | null, QueryError>(key, async () => unwrap(await fetcher()), config);
}
