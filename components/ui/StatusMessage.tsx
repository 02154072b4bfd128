// Inline status line after an action ("List saved.", "Could not delete …"): role=status for
// success and info so screen readers hear it politely, role=alert for errors.
import { CircleAlert, CircleCheck, Info } from 'lucide-react';
import type { ReactNode } from 'react';
import styles from './StatusMessage.module.css';

export type StatusTone = 'success' | 'error' | 'info';

export function StatusMessage({
  tone = 'info',
  children,
}: {
  tone?: StatusTone;
  children: ReactNode;
}) {
  const Icon = tone === 'success' ? CircleCheck : tone === 'error' ? CircleAlert : Info;
  return (
    <div
      className={`${styles.message} ${styles[tone]}`}
      role={tone === 'error' ? 'alert' : 'status'}
    >
      <Icon className={styles.icon} aria-hidden="true" />
      <div>{children}</div>
    </div>
  );
}
