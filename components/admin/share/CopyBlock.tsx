// A labelled read-only snippet (one line or a code block) with a Copy button that says whether
// the copy worked; the text can also be selected by hand.
import { Check, Copy } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../ui';
import styles from './Share.module.css';

async function copyText(text: string, field: HTMLTextAreaElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard permission (an insecure origin, an old browser): select and use the old command.
    field?.select();
    return document.execCommand?.('copy') ?? false;
  }
}

export default function CopyBlock({
  label,
  value,
  hint,
  rows = 1,
}: {
  label: string;
  value: string;
  hint?: string;
  rows?: number;
}) {
  const id = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);
  useEffect(() => setState('idle'), [value]);

  return (
    <div className={styles.copyBlock}>
      <div className={styles.copyHead}>
        <label htmlFor={id} className={styles.label}>
          {label}
        </label>
        <Button
          size="sm"
          icon={state === 'copied' ? <Check /> : <Copy />}
          onClick={async () =>
            setState((await copyText(value, field.current)) ? 'copied' : 'failed')
          }
          aria-describedby={`${id}-status`}
        >
          Copy
        </Button>
      </div>
      <textarea
        ref={field}
        id={id}
        className={rows > 1 ? styles.code : styles.line}
        readOnly
        rows={rows}
        value={value}
        spellCheck={false}
        onFocus={(e) => e.currentTarget.select()}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      {hint ? (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      <p id={`${id}-status`} className={styles.copyStatus} role="status">
        {state === 'copied'
          ? 'Copied.'
          : state === 'failed'
            ? 'Copy failed: select the text and copy it.'
            : ''}
      </p>
    </div>
  );
}
