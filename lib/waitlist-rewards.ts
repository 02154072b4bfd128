// A waitlist's line (issue 23): the order of its line (lists.waitlist_order) and its reward
// milestones (table waitlist_rewards), read for the reader's /waitlist/ page as the anon role
// (public waitlists only), and what a reader with n referrals has earned and has still to reach.
import { publicRest } from './supabase-public';
import { usePublicQuery } from './use-public-query';
import { queryKey, toQueryError } from './query';

/** referrals: more confirmed referrals first (SPEC §9); joined: order of confirmation, with jumps. */
export type WaitlistOrder = 'referrals' | 'joined';

export interface WaitlistReward {
  referrals: number;
  reward: string;
  /** Places the milestone moves its reader up (the order of joining only). */
  jump: number;
}

export interface WaitlistLine {
  order: WaitlistOrder;
  /** Lowest milestone first. */
  rewards: WaitlistReward[];
}

export interface RewardProgress {
  /** Reached, the highest first. */
  earned: WaitlistReward[];
  /** The next milestone and how many referrals are still missing, or null when all are reached. */
  next: (WaitlistReward & { missing: number }) | null;
}

export function rewardProgress(rewards: WaitlistReward[], referrals: number): RewardProgress {
  const sorted = [...rewards].sort((a, b) => a.referrals - b.referrals);
  const earned = sorted.filter((r) => r.referrals <= referrals).reverse();
  const upcoming = sorted.find((r) => r.referrals > referrals);
  return {
    earned,
    next: upcoming ? { ...upcoming, missing: upcoming.referrals - referrals } : null,
  };
}

/** The order and milestones of the public waitlist `slug` (no milestones: []). */
export function useWaitlistLine(slug: string | null) {
  return usePublicQuery<WaitlistLine>(
    slug ? queryKey('waitlist-line', { slug }) : null,
    async () => {
      const { data, error, status } = await publicRest.select<{
        waitlist_order: string;
        waitlist_rewards: WaitlistReward[] | null;
      }>(
        'lists',
        { select: 'waitlist_order,waitlist_rewards(referrals,reward,jump)', slug: `eq.${slug!}` },
        true,
      );
      if (error) throw toQueryError(error, status);
      const rows = (data?.waitlist_rewards ?? []) as WaitlistReward[];
      return {
        data: {
          order: data?.waitlist_order === 'joined' ? 'joined' : 'referrals',
          rewards: [...rows].sort((a, b) => a.referrals - b.referrals),
        },
        error: null,
      };
    },
  );
}

/** How the line is ordered, in the reader's words. */
export function orderText(order: WaitlistOrder): string {
  return order === 'joined'
    ? 'The line is in the order people confirmed; reaching a reward milestone below moves you up.'
    : 'People with more referrals go first; with as many, whoever confirmed earlier does.';
}
