// Public lists for the signup forms, oldest first (anon sees only public ones; members see all,
// so the filter is explicit).
import { PUBLIC_LIST_COLUMNS, sortLists, type PublicList } from './public-lists';
import { publicRest } from './supabase-public';
import { usePublicQuery } from './use-public-query';
import { queryKey, type QueryError } from './query';

export const PUBLIC_LISTS_KEY = queryKey('public-lists');

export function usePublicLists(): {
  lists: PublicList[] | undefined;
  isLoading: boolean;
  error: QueryError | undefined;
  /** Reads the lists again (the Try again of a failed load). */
  retry: () => void;
} {
  const { data, error, isLoading, mutate } = usePublicQuery(
    PUBLIC_LISTS_KEY,
    () =>
      // No silent retries for seconds: a failed read shows its error and a Try again at once.
      publicRest.select<Array<Omit<PublicList, 'optin'> & { optin: string }>>('lists', {
        select: PUBLIC_LIST_COLUMNS.replace(/\s+/g, ''),
        visibility: 'eq.public',
        order: 'created_at.asc,slug.asc',
      }),
    { revalidateOnFocus: false },
  );
  return {
    lists: data
      ? sortLists(
          data.map((row) => ({ ...row, optin: row.optin === 'single' ? 'single' : 'double' })),
        )
      : undefined,
    isLoading,
    error,
    retry: () => void mutate(),
  };
}
