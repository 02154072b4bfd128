import { describe, expect, it } from 'vitest';
import { rewardProgress } from './waitlist-rewards';

const rewards = [
  { referrals: 10, reward: 'A lifetime discount', jump: 0 },
  { referrals: 1, reward: 'Stickers', jump: 0 },
  { referrals: 3, reward: 'Beta access', jump: 0 },
];

describe('rewardProgress', () => {
  it('has nothing earned at 0 and names the first milestone as next', () => {
    expect(rewardProgress(rewards, 0)).toEqual({
      earned: [],
      next: { referrals: 1, reward: 'Stickers', jump: 0, missing: 1 },
    });
  });

  it('counts a milestone as earned once reached, the highest first', () => {
    expect(rewardProgress(rewards, 3)).toEqual({
      earned: [
        { referrals: 3, reward: 'Beta access', jump: 0 },
        { referrals: 1, reward: 'Stickers', jump: 0 },
      ],
      next: { referrals: 10, reward: 'A lifetime discount', jump: 0, missing: 7 },
    });
  });

  it('has no next once every milestone is reached, and nothing at all without milestones', () => {
    expect(rewardProgress(rewards, 12).next).toBeNull();
    expect(rewardProgress(rewards, 12).earned).toHaveLength(3);
    expect(rewardProgress([], 5)).toEqual({ earned: [], next: null });
  });
});
