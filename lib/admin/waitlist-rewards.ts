// Reward milestones of a waitlist in the admin (issue 23, table waitlist_rewards): read by every
// member, added and removed by admins and owners (RLS decides; the page only hides the controls).
import { useCallback, useState } from 'react';
import { mutate } from 'swr';
import { supabase } from '../supabase';
import { QueryError, queryKey, toQueryError, unwrap, useQuery } from '../use-query';

export interface RewardRow {
  id: string;
  referrals: number;
  reward: string;
}

const rewardsKey = (listId: string) => queryKey('admin/waitlist-rewards', { list: listId });

export function useRewards(listId: string | null) {
  return useQuery<RewardRow[]>(listId ? rewardsKey(listId) : null, async () => ({
    data: unwrap(
      await supabase
        .from('waitlist_rewards')
        .select('id,referrals,reward')
        .eq('list_id', listId!)
        .order('referrals'),
    ),
    error: null,
  }));
}

/** The form's fields checked as the table checks them; null when they are fine. */
export function rewardProblem(referrals: string, reward: string): string | null {
  if (!/^\d{1,5}$/.test(referrals.trim()) || Number(referrals) < 1 || Number(referrals) > 10_000)
    return 'Referrals: a whole number from 1 to 10,000.';
  const text = reward.trim();
  if (text.length < 1 || text.length > 200) return 'Reward: 1 to 200 characters.';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(text)) return 'Reward: one line of text.';
  return null;
}

/** Adds and removes milestones of one waitlist, one write at a time. */
export function useRewardWrites(listId: string) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<QueryError | null>(null);
  const write = useCallback(
    async (run: () => PromiseLike<{ error: unknown; status: number }>): Promise<boolean> => {
      setPending(true);
      setError(null);
      try {
        const { error: failed, status } = await run();
        if (failed) {
          const err = toQueryError(failed, status);
          // The unique key (one reward per number of referrals) in words.
          setError(
            err.code === '23505'
              ? new QueryError('There is already a reward at that number of referrals.')
              : err,
          );
          return false;
        }
        return true;
      } finally {
        setPending(false);
        await mutate(rewardsKey(listId));
      }
    },
    [listId],
  );
  const add = (referrals: number, reward: string) =>
    write(() =>
      supabase
        .from('waitlist_rewards')
        .insert({ list_id: listId, referrals, reward: reward.trim() }),
    );
  const remove = (id: string) =>
    write(() => supabase.from('waitlist_rewards').delete().eq('id', id));
  return { add, remove, pending, error };
}
