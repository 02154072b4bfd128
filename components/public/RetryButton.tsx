// The "Try again" of every public page's error state: the same look and words everywhere, and the
// page decides what trying again means (refetching its data, or reloading a token link).
import { RotateCcw } from 'lucide-react';
import styles from './Public.module.css';

export default function RetryButton({ onRetry }: { onRetry: () => void }) {
  return (
    <button type="button" className={styles.button} onClick={onRetry}>
      <RotateCcw aria-hidden="true" />
      Try again
    </button>
  );
}
