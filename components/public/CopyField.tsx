// A read-only link with a copy button (Copy icon, then Check for a moment once copied).
import { Check, Copy } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import styles from './Public.module.css';

async function copyText(text: string, fallback: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard permission (an iframe, an old browser): select the text and use the old command.
    fallback?.select();
    return document.execCommand?.('copy') ?? false;
  }
}

export default function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);

  return (
    <div className={styles.copyField}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <div className={styles.copyRow}>
        <input
          ref={input}
          id={id}
          className={styles.copyInput}
          type="text"
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button
          type="button"
          className={styles.secondaryButton}
          onClick={async () =>
            setState((await copyText(value, input.current)) ? 'copied' : 'failed')
          }
        >
          {state === 'copied' ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          <span>{state === 'copied' ? 'Copied' : 'Copy link'}</span>
        </button>
      </div>
      <p className={styles.copyStatus} role="status">
        {state === 'copied'
          ? 'Link copied to the clipboard.'
          : state === 'failed'
            ? 'Could not copy: select the link and copy it yourself.'
            : ''}
      </p>
    </div>
  );
}
