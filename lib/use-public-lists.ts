// Public lists for the signup forms, oldest first (lib/read-public-lists.ts).
import type { PublicList } from './public-lists';
import { readPublicLists, toPublicLists } from './read-public-lists';
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
    // No silent retries for seconds: a failed read shows its error and a Try again at once.
    readPublicLists,
    { revalidateOnFocus: false },
  );
  return {
    lists: data ? toPublicLists(data) : undefined,
    isLoading,
    error,
    retry: () => void mutate(),
  };
}
