// Reward milestones of a waitlist in the admin (issue 23, table waitlist_rewards) and the order of
// its line (lists.waitlist_order): read by every member, changed by admins and owners (RLS decides;
// the page only hides the controls). In the order of joining a milestone may move its reader up
// (`jump` places); in the referrals order (SPEC §9) rewards are text only.
import { useCallback, useState } from 'react';
import { mutate } from 'swr';
import type { WaitlistOrder } from '../waitlist-rewards';
import { supabase } from '../supabase';
import { QueryError, queryKey, toQueryError, unwrap, useQuery } from '../use-query';
import { revalidateLists } from './use-lists';

export interface RewardRow {
  id: string;
  referrals: number;
  reward: string;
  jump: number;
}

/** At most this many places per milestone (the table's check). */
export const MAX_JUMP = 1_000_000;

const rewardsKey = (listId: string) => queryKey('admin/waitlist-rewards', { list: listId });

export function useRewards(listId: string | null) {
  return useQuery<RewardRow[]>(listId ? rewardsKey(listId) : null, async () => ({
    data: unwrap(
      await supabase
        .from('waitlist_rewards')
        .select('id,referrals,reward,jump')
        .eq('list_id', listId!)
        .order('referrals'),
    ),
    error: null,
  }));
}

/** Places to move up, from the form: '' is none (0); null when it is not a whole number in range. */
export function parseJump(jump: string): number | null {
  const text = jump.trim();
  if (text === '') return 0;
  if (!/^\d{1,7}$/.test(text) || Number(text) > MAX_JUMP) return null;
  return Number(text);
}

/** The reward's text: the one typed, or for a bare jump the jump in words. */
export function rewardText(reward: string, jump: number): string {
  const text = reward.trim();
  if (text || jump === 0) return text;
  return `Move up ${jump.toLocaleString('en')} ${jump === 1 ? 'place' : 'places'} in line`;
}

/** The form's fields checked as the table checks them; null when they are fine. */
export function rewardProblem(referrals: string, reward: string, jump = ''): string | null {
  if (!/^\d{1,5}$/.test(referrals.trim()) || Number(referrals) < 1 || Number(referrals) > 10_000)
    return 'Referrals: a whole number from 1 to 10,000.';
  const places = parseJump(jump);
  if (places === null)
    return `Move up: a whole number of places from 0 to ${MAX_JUMP.toLocaleString('en')}.`;
  const text = rewardText(reward, places);
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
  const add = (referrals: number, reward: string, jump = 0) =>
    write(() =>
      supabase
        .from('waitlist_rewards')
        .insert({ list_id: listId, referrals, reward: rewardText(reward, jump), jump }),
    );
  const remove = (id: string) =>
    write(() => supabase.from('waitlist_rewards').delete().eq('id', id));
  return { add, remove, pending, error };
}

/** Changes the order of a waitlist's line (admins and owners); places move at once. */
export function useWaitlistOrderWrite(listId: string) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<QueryError | null>(null);
  const setOrder = useCallback(
    async (order: WaitlistOrder): Promise<boolean> => {
      setPending(true);
      setError(null);
      try {
        const {
          data,
          error: failed,
          status,
        } = await supabase
          .from('lists')
          .update({ waitlist_order: order })
          .eq('id', listId)
          .select('id');
        if (failed) {
          setError(toQueryError(failed, status));
          return false;
        }
        // Row-level security hides a refused update: no error, no row.
        if (!data?.length) {
          setError(new QueryError('You do not have permission to do that.'));
          return false;
        }
        return true;
      } finally {
        setPending(false);
        await Promise.all([
          revalidateLists().catch(() => undefined),
          mutate((key) => typeof key === 'string' && key.startsWith('admin/waitlists')),
        ]);
      }
    },
    [listId],
  );
  return { setOrder, pending, error };
}
