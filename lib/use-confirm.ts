// Double opt-in: sends the confirm token once and keeps the answer (the token is single-use, so a
// revalidation would turn a success into token_invalid).
import { parseConfirmAnswer, type ConfirmAnswer } from './confirm';
import { asQueryResult } from './functions';
import { invokeFunction } from './invoke';
import { usePublicQuery } from './use-public-query';
import { queryKey, type QueryError } from './query';

/** For single-use requests: fetch once per key, never again on focus, reconnect or remount. */
export const ONCE = {
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  revalidateIfStale: false,
  shouldRetryOnError: false,
} as const;

export function useConfirm(token: string | null): {
  data: ConfirmAnswer | null | undefined;
  error: QueryError | undefined;
  isLoading: boolean;
} {
  const { data, error, isLoading } = usePublicQuery(
    token ? queryKey('confirm', { token }) : null,
    async () =>
      asQueryResult(await invokeFunction('confirm', parseConfirmAnswer, { body: { token } })),
    ONCE,
  );
  return { data, error, isLoading };
}
