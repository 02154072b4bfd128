// A waitlist's reward milestones (issue 23, table waitlist_rewards): read for the reader's
// /waitlist/ page as the anon role (public waitlists only), and what a reader with n referrals has
// earned and has still to reach.
import { publicRest } from './supabase-public';
import { queryKey, toQueryError, useQuery } from './use-query';

export interface WaitlistReward {
  referrals: number;
  reward: string;
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

/** The milestones of the public waitlist `slug`, lowest first ([] when it has none). */
export function useWaitlistRewards(slug: string | null) {
  return useQuery<WaitlistReward[]>(
    slug ? queryKey('waitlist-rewards', { slug }) : null,
    async () => {
      const { data, error, status } = await publicRest
        .from('lists')
        .select('waitlist_rewards(referrals,reward)')
        .eq('slug', slug!)
        .maybeSingle();
      if (error) throw toQueryError(error, status);
      const rows = (data?.waitlist_rewards ?? []) as WaitlistReward[];
      return { data: [...rows].sort((a, b) => a.referrals - b.referrals), error: null };
    },
  );
}
