// The three non-success states every data view has: loading, empty, and failed (with Retry).
import { CircleAlert, Inbox, LoaderCircle, RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './Button';
import styles from './States.module.css';

export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className={styles.state} role="status" aria-busy="true" aria-live="polite">
      <LoaderCircle className={`${styles.icon} ${styles.spin}`} aria-hidden="true" />
      <p className={styles.text}>{label}</p>
    </div>
  );
}

export function EmptyState({
  title,
  children,
  action,
  icon,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <div className={styles.state}>
      <span className={styles.iconWrap} aria-hidden="true">
        {icon ?? <Inbox className={styles.icon} />}
      </span>
      <p className={styles.title}>{title}</p>
      {children ? <div className={styles.text}>{children}</div> : null}
      {action ? <div className={styles.action}>{action}</div> : null}
    </div>
  );
}

export function ErrorState({
  title = 'This could not be loaded.',
  message,
  onRetry,
  retrying,
}: {
  title?: string;
  message?: string;
  onRetry?: () => void;
  retrying?: boolean;
}) {
  return (
    <div className={`${styles.state} ${styles.error}`} role="alert">
      <span className={`${styles.iconWrap} ${styles.errorIcon}`} aria-hidden="true">
        <CircleAlert className={styles.icon} />
      </span>
      <p className={styles.title}>{title}</p>
      {message ? <p className={styles.text}>{message}</p> : null}
      {onRetry ? (
        <div className={styles.action}>
          <Button icon={<RotateCw />} onClick={onRetry} loading={retrying}>
            Retry
          </Button>
        </div>
      ) : null}
    </div>
  );
}
