// Reward milestones of one waitlist on /admin/waitlists/ (issue 23): "at N referrals: <reward>",
// which the reader's /waitlist/ page shows once reached (with the next one to aim for). Every member
// sees them; admins and owners add and remove them.
import { Gift, Plus, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { rewardProblem, useRewards, useRewardWrites } from '../../../lib/admin/waitlist-rewards';
import { Button, Card, ErrorState, LoadingState, StatusMessage, TextField } from '../../ui';
import styles from '../ListEditor.module.css';

export function RewardsCard({ listId, editable }: { listId: string; editable: boolean }) {
  const rewards = useRewards(listId);
  const writes = useRewardWrites(listId);
  const [referrals, setReferrals] = useState('3');
  const [reward, setReward] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = rewardProblem(referrals, reward);
    setProblem(found);
    if (found) return;
    if (await writes.add(Number(referrals), reward)) setReward('');
  };

  let body;
  if (rewards.error && !rewards.data) {
    body = (
      <ErrorState
        title="The rewards could not be loaded."
        message={rewards.error.message}
        onRetry={() => void rewards.mutate()}
      />
    );
  } else if (!rewards.data) {
    body = <LoadingState label="Loading rewards…" />;
  } else if (rewards.data.length === 0) {
    body = <p>No rewards yet. Readers see them on their waitlist page once they reach them.</p>;
  } else {
    body = (
      <ul aria-label="Reward milestones" className={styles.form}>
        {rewards.data.map((r) => (
          <li key={r.id} className={styles.pair}>
            <span>
              <Gift aria-hidden="true" size={14} /> At <strong>{r.referrals}</strong>{' '}
              {r.referrals === 1 ? 'referral' : 'referrals'}: {r.reward}
            </span>
            {editable ? (
              <Button
                size="sm"
                variant="danger"
                icon={<Trash2 />}
                loading={writes.pending}
                aria-label={`Remove the reward at ${r.referrals} referrals`}
                onClick={() => void writes.remove(r.id)}
              >
                Remove
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Card title="Rewards for referrals" aria-label="Rewards for referrals">
      <div className={styles.form}>
        {body}
        {editable ? (
          <form className={styles.pair} onSubmit={(e) => void submit(e)} noValidate>
            <TextField
              label="At referrals"
              inputMode="numeric"
              value={referrals}
              onChange={(e) => setReferrals(e.target.value)}
            />
            <TextField
              label="Reward"
              placeholder="e.g. Early access to the beta"
              maxLength={200}
              value={reward}
              onChange={(e) => setReward(e.target.value)}
            />
            <Button type="submit" icon={<Plus />} loading={writes.pending}>
              Add reward
            </Button>
          </form>
        ) : null}
        {problem ? (
          <StatusMessage tone="error">{problem}</StatusMessage>
        ) : writes.error ? (
          <StatusMessage tone="error">{writes.error.message}</StatusMessage>
        ) : null}
      </div>
    </Card>
  );
}
