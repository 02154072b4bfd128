// The unsubscribe page: unsubscribes once when the page opens (the visitor clicked the footer
// link to do exactly that), then offers the undo (resubscribe) and a way back to unsubscribed.
import { useCallback } from 'react';
import { asQueryResult, type FunctionOutcome } from './functions';
import { invokeFunction } from './invoke';
import { parseUnsubscribeView, type UnsubscribeView } from './unsubscribe';
import { ONCE } from './use-confirm';
import { usePublicQuery } from './use-public-query';
import { queryKey, type QueryError } from './query';

type Action = 'unsubscribe' | 'resubscribe';

function send(token: string, action: Action): Promise<FunctionOutcome<UnsubscribeView>> {
  return invokeFunction('unsubscribe', parseUnsubscribeView, { body: { token, action } });
}

export function useUnsubscribe(token: string | null): {
  data: UnsubscribeView | null | undefined;
  error: QueryError | undefined;
  isLoading: boolean;
  change: (action: Action) => Promise<FunctionOutcome<UnsubscribeView>>;
} {
  const { data, error, isLoading, mutate } = usePublicQuery(
    token ? queryKey('unsubscribe', { token }) : null,
    async () => asQueryResult(await send(token ?? '', 'unsubscribe')),
    // Once per visit: a refetch would undo the visitor's undo.
    ONCE,
  );
  const change = useCallback(
    async (action: Action) => {
      const outcome = await send(token ?? '', action);
      if (outcome.ok) await mutate(outcome.data, { revalidate: false });
      return outcome;
    },
    [token, mutate],
  );
  return { data, error, isLoading, change };
}
