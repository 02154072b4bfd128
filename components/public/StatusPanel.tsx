// A result card for the token pages (confirm, unsubscribe, waitlist, preferences): an icon for the
// kind of outcome, a focusable heading (announced when the state changes), text and actions.
import { CircleAlert, CircleCheck, Info, LoaderCircle } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import styles from './Public.module.css';

export type StatusTone = 'loading' | 'success' | 'error' | 'info';

const ICONS = { loading: LoaderCircle, success: CircleCheck, error: CircleAlert, info: Info };

export default function StatusPanel({
  tone,
  title,
  children,
  actions,
}: {
  tone: StatusTone;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  const Icon = ICONS[tone];
  const heading = useRef<HTMLHeadingElement>(null);
  // Move focus to a new outcome so screen readers announce it (not for the first loading state).
  useEffect(() => {
    if (tone !== 'loading' && document.activeElement !== heading.current) {
      heading.current?.focus({ preventScroll: true });
    }
  }, [tone, title]);
  // A new outcome is a new panel (keyed by its tone), not the loading one's text rewritten: the
  // centred heading and text moved sideways and up as their length changed (CLS 0.009 on /confirm/).
  return (
    <section
      key={tone}
      className={styles.card}
      aria-busy={tone === 'loading'}
      aria-labelledby="status-title"
    >
      <div className={styles.status}>
        <Icon className={`${styles.statusIcon} ${styles[tone]}`} aria-hidden="true" />
        <h1 id="status-title" ref={heading} tabIndex={-1} className={styles.statusTitle}>
          {title}
        </h1>
        {children && <div className={styles.statusBody}>{children}</div>}
      </div>
      {actions && <div className={styles.actions}>{actions}</div>}
    </section>
  );
}
