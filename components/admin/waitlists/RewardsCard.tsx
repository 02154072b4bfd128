// The order of one waitlist's line and its reward milestones on /admin/waitlists/ (issue 23): "at
// N referrals: <reward>", which the reader's /waitlist/ page shows once reached (with the next one
// to aim for). In the order of joining a milestone can also move its reader up N places; in the
// referrals order (the default, SPEC §9) readers with more referrals are ahead already, so rewards
// are text only. Every member sees them; admins and owners change them.
import { Gift, Plus, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { ListWithCounts } from '../../../lib/admin/lists';
import {
  parseJump,
  rewardProblem,
  rewardText,
  type RewardRow,
  useRewards,
  useRewardWrites,
  useWaitlistOrderWrite,
} from '../../../lib/admin/waitlist-rewards';
import type { WaitlistOrder } from '../../../lib/waitlist-rewards';
import {
  Button,
  Card,
  ErrorState,
  LoadingState,
  SelectField,
  StatusMessage,
  TextField,
} from '../../ui';
import styles from '../ListEditor.module.css';
import own from './RewardsCard.module.css';

const ORDER_HINTS: Record<WaitlistOrder, string> = {
  referrals:
    'More confirmed referrals first; with as many, whoever confirmed earlier. Rewards are text.',
  joined:
    'Whoever confirmed first is first; a reward milestone with “Move up” moves its reader up that many places.',
};

const places = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'place' : 'places'}`;

/** A milestone's jump after its text, unless the text already is the jump in words. */
function jumpNote(r: RewardRow, order: WaitlistOrder): string | null {
  if (r.jump === 0) return null;
  if (order === 'referrals') return ' · its move up counts in the order of joining only';
  return r.reward === rewardText('', r.jump) ? null : ` · moves up ${places(r.jump)}`;
}

export function RewardsCard({ list, editable }: { list: ListWithCounts; editable: boolean }) {
  const listId = list.id;
  const order: WaitlistOrder = list.waitlist_order === 'joined' ? 'joined' : 'referrals';
  const rewards = useRewards(listId);
  const writes = useRewardWrites(listId);
  const orderWrite = useWaitlistOrderWrite(listId);
  const [referrals, setReferrals] = useState('3');
  const [reward, setReward] = useState('');
  const [jump, setJump] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const moves = order === 'joined' ? jump : '';
    const found = rewardProblem(referrals, reward, moves);
    setProblem(found);
    if (found) return;
    if (await writes.add(Number(referrals), reward, parseJump(moves) ?? 0)) {
      setReward('');
      setJump('');
    }
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
    body = (
      <p>No rewards yet. Readers see them on their waitlist page, and the next one to aim for.</p>
    );
  } else {
    body = (
      <ul aria-label="Reward milestones" className={own.milestones}>
        {rewards.data.map((r) => (
          <li key={r.id} className={own.milestone}>
            <span>
              <Gift aria-hidden="true" size={14} /> At <strong>{r.referrals}</strong>{' '}
              {r.referrals === 1 ? 'referral' : 'referrals'}: {r.reward}
              {jumpNote(r, order)}
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
    <Card title="Order and rewards" aria-label="Order and rewards">
      <div className={styles.form}>
        <SelectField
          label="Order of the line"
          className={own.order}
          value={order}
          hint={ORDER_HINTS[order]}
          disabled={!editable || orderWrite.pending}
          onChange={(e) => void orderWrite.setOrder(e.target.value as WaitlistOrder)}
        >
          <option value="referrals">Most referrals first</option>
          <option value="joined">Order of joining</option>
        </SelectField>
        {orderWrite.error ? (
          <StatusMessage tone="error">{orderWrite.error.message}</StatusMessage>
        ) : null}
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
              placeholder={
                order === 'joined' ? 'e.g. Move up the line' : 'e.g. Early access to the beta'
              }
              maxLength={200}
              value={reward}
              onChange={(e) => setReward(e.target.value)}
            />
            {order === 'joined' ? (
              <TextField
                label="Move up (places)"
                inputMode="numeric"
                placeholder="0"
                optional
                value={jump}
                onChange={(e) => setJump(e.target.value)}
              />
            ) : null}
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
