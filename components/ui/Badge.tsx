// A small pill for statuses and roles; the tone carries colour, the text carries meaning.
import type { ReactNode } from 'react';
import styles from './Badge.module.css';

export type BadgeTone = 'neutral' | 'brand' | 'success' | 'warning' | 'danger';

export function Badge({ tone = 'neutral', children }: { tone?: BadgeTone; children: ReactNode }) {
  return <span className={`${styles.badge} ${styles[tone]}`}>{children}</span>;
}

/** The usual tone of a status word across the admin (subscriptions, subscribers, campaigns). */
export function statusTone(status: string): BadgeTone {
  switch (status) {
    case 'confirmed':
    case 'enabled':
    case 'sent':
      return 'success';
    case 'pending':
    case 'scheduled':
    case 'paused':
      return 'warning';
    case 'unsubscribed':
    case 'blocklisted':
    case 'failed':
    case 'bounced':
    case 'cancelled':
      return 'danger';
    case 'owner':
    case 'admin':
    case 'sending':
      return 'brand';
    default:
      return 'neutral';
  }
}
