// The reader's reward milestones on /waitlist/ (issue 23): what their referrals have earned and the
// next milestone with how many referrals it still takes. Nothing at all for a waitlist without
// milestones, or while they load; a failed read is said in one quiet line (the place above stays).
import { Gift } from 'lucide-react';
import { rewardProgress, useWaitlistLine } from '../../lib/waitlist-rewards';
import styles from './Public.module.css';

export default function WaitlistReward({ slug, referrals }: { slug: string; referrals: number }) {
  const line = useWaitlistLine(slug);
  if (line.error) {
    return <p className={styles.sectionText}>The rewards of this waitlist could not be loaded.</p>;
  }
  if (!line.data || line.data.rewards.length === 0) return null;
  const { earned, next } = rewardProgress(line.data.rewards, referrals);
  return (
    <section aria-labelledby="waitlist-rewards-title" data-testid="waitlist-rewards">
      <h2 id="waitlist-rewards-title" className={styles.sectionTitle}>
        <Gift aria-hidden="true" size={18} /> Rewards for referrals
      </h2>
      <ul className={styles.sectionText}>
        {earned.map((r) => (
          <li key={r.referrals}>
            <strong>Earned</strong> at {r.referrals} {r.referrals === 1 ? 'referral' : 'referrals'}:{' '}
            {r.reward}
          </li>
        ))}
        {next ? (
          <li>
            <strong>Next</strong> at {next.referrals}{' '}
            {next.referrals === 1 ? 'referral' : 'referrals'}: {next.reward} ({next.missing} more{' '}
            {next.missing === 1 ? 'friend' : 'friends'} to go)
          </li>
        ) : null}
      </ul>
    </section>
  );
}
