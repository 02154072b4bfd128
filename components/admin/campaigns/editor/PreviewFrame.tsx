// The live preview: the body rendered by the same rules the sender uses (lib/campaign-render.ts),
// a moment after typing stops, inside a sandboxed iframe (no scripts, no same-origin access).
import { useEffect, useMemo, useState } from 'react';
import { previewDocument, type PreviewInput } from '../../../../lib/admin/campaign-editor-preview';
import styles from './Editor.module.css';

/** Rendering 512 KB of Markdown on every key would stall typing; this waits for a pause. */
const PREVIEW_DELAY_MS = 250;

function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

export function PreviewFrame({ input }: { input: PreviewInput }) {
  const settled = useDebounced(input, PREVIEW_DELAY_MS);
  const doc = useMemo(() => previewDocument(settled), [settled]);
  return (
    <div className={styles.preview}>
      <p className={styles.previewLabel} id="campaign-preview-label">
        Preview <span className={styles.previewNote}>as subscribers get it</span>
      </p>
      <iframe
        className={styles.previewFrame}
        title="Email preview"
        aria-describedby="campaign-preview-label"
        sandbox=""
        srcDoc={doc}
        referrerPolicy="no-referrer"
        data-testid="campaign-preview"
      />
    </div>
  );
}
