// A waitlist place at a glance: position, people in line, confirmed referrals, and the link to share.
import type { WaitlistStanding } from '../../lib/waitlist';
import { formatCount } from '../../lib/waitlist';
import CopyField from './CopyField';
import styles from './Public.module.css';

export default function WaitlistStats({ standing }: { standing: WaitlistStanding }) {
  const confirmed = standing.status === 'confirmed' && standing.position !== null;
  return (
    <div className={styles.waitlist}>
      <dl className={styles.stats}>
        <div className={`${styles.stat} ${styles.statMain}`}>
          <dt>Your position</dt>
          <dd data-testid="waitlist-position">
            {confirmed ? `#${formatCount(standing.position ?? 0)}` : '—'}
          </dd>
        </div>
        <div className={styles.stat}>
          <dt>In line</dt>
          <dd data-testid="waitlist-total">{formatCount(standing.total)}</dd>
        </div>
        <div className={styles.stat}>
          <dt>Referrals</dt>
          <dd data-testid="waitlist-referrals">{formatCount(standing.referrals)}</dd>
        </div>
      </dl>
      <CopyField label="Your referral link" value={standing.url} />
      <p className={styles.muted}>
        Every friend who joins {standing.list.name} through your link and confirms moves you up the
        line.
      </p>
    </div>
  );
}
