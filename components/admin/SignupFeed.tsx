// The dashboard's live feed: newest signups first, with a "Live" indicator for the Realtime channel.
import type { LiveStatus } from '../../lib/admin/live-channel';
import type { FeedItem } from '../../lib/admin/use-signup-feed';
import styles from './SignupFeed.module.css';

const TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const STATUS_TEXT: Record<LiveStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  offline: 'Offline: reload to reconnect',
};

export function FeedIndicator({ status }: { status: LiveStatus }) {
  return (
    <span className={`${styles.indicator} ${styles[status]}`}>
      <span className={styles.dot} aria-hidden="true" />
      {STATUS_TEXT[status]}
    </span>
  );
}

export function SignupFeed({ items }: { items: FeedItem[] }) {
  return (
    <ol className={styles.feed} aria-label="Newest signups" aria-live="polite">
      {items.map((item) => (
        <li key={item.id} className={styles.item}>
          <span className={styles.avatar} aria-hidden="true">
            {(item.name || item.email).slice(0, 1).toUpperCase()}
          </span>
          <span className={styles.who}>
            <span className={styles.email}>{item.email}</span>
            {item.name ? <span className={styles.name}>{item.name}</span> : null}
          </span>
          <time className={styles.time} dateTime={item.created_at}>
            {TIME.format(new Date(item.created_at))}
          </time>
        </li>
      ))}
    </ol>
  );
}
