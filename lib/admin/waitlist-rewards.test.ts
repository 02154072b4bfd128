import { describe, expect, it } from 'vitest';
import { parseJump, rewardProblem, rewardText } from './waitlist-rewards';

describe('the reward form', () => {
  it('reads "Move up" as whole places, empty as none', () => {
    expect(parseJump('')).toBe(0);
    expect(parseJump(' 100 ')).toBe(100);
    expect(parseJump('1000000')).toBe(1_000_000);
    for (const bad of ['-1', '2.5', '1000001', 'ten']) expect(parseJump(bad), bad).toBeNull();
  });

  it('words a bare jump as the reward, and keeps a typed text', () => {
    expect(rewardText('', 1)).toBe('Move up 1 place in line');
    expect(rewardText('  ', 2500)).toBe('Move up 2,500 places in line');
    expect(rewardText(' Beta access ', 100)).toBe('Beta access');
    expect(rewardText('', 0)).toBe('');
  });

  it('asks for a text or a jump, and checks each field as the table does', () => {
    expect(rewardProblem('3', '', '')).toBe('Reward: 1 to 200 characters.');
    expect(rewardProblem('3', '', '10')).toBeNull();
    expect(rewardProblem('0', 'Stickers')).toBe('Referrals: a whole number from 1 to 10,000.');
    expect(rewardProblem('3', 'Stickers', '-5')).toBe(
      'Move up: a whole number of places from 0 to 1,000,000.',
    );
    expect(rewardProblem('3', 'two\nlines')).toBe('Reward: one line of text.');
  });
});
