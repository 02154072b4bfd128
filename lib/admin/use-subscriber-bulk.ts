// Hooks of the subscribers page's bulk actions: how many subscribers a target holds (the count
// shown before asking), and the action itself with its running progress; the table and counts
// revalidate afterwards, whether it finished or failed midway.
import { useCallback, useState } from 'react';
import { supabase } from '../supabase';
import { queryKey, toQueryError, useQuery, type QueryError } from '../use-query';
import { runBulk, type BulkAction, type BulkOptions, type BulkProgress } from './subscriber-bulk';
import type { RuleGroup } from './subscriber-rules';
import { countMatching } from './subscribers';
import { revalidateSubscribers } from './use-subscribers';

/** How many subscribers `rules` match now (null: nothing to count yet). */
export function useMatchCount(rules: RuleGroup | null) {
  return useQuery(
    rules ? queryKey('admin/subscribers/match-count', { rules: JSON.stringify(rules) }) : null,
    async () => ({ data: await countMatching(supabase, rules!), error: null }),
  );
}

export type BulkRun =
  | { status: 'idle' }
  | { status: 'running'; action: BulkAction; progress: BulkProgress; total: number | null }
  | { status: 'done'; action: BulkAction; progress: BulkProgress }
  | { status: 'failed'; action: BulkAction; progress: BulkProgress; error: QueryError };

export function useSubscriberBulk() {
  const [state, setState] = useState<BulkRun>({ status: 'idle' });
  const run = useCallback(
    async (
      action: BulkAction,
      rules: RuleGroup,
      options: BulkOptions,
      total: number | null,
    ): Promise<BulkRun> => {
      let progress: BulkProgress = { processed: 0, changed: 0 };
      setState({ status: 'running', action, progress, total });
      let next: BulkRun;
      try {
        progress = await runBulk(supabase, action, rules, options, (p) => {
          progress = p;
          setState({ status: 'running', action, progress: p, total });
        });
        next = { status: 'done', action, progress };
      } catch (error) {
        next = { status: 'failed', action, progress, error: toQueryError(error) };
      }
      setState(next);
      await revalidateSubscribers();
      return next;
    },
    [],
  );
  const reset = useCallback(() => setState({ status: 'idle' }), []);
  return { state, run, reset };
}
