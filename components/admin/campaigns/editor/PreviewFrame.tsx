// The live preview: the body rendered by the same rules the sender uses (lib/campaign-render.ts),
// a moment after typing stops, inside a sandboxed iframe (no scripts, no same-origin access).
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { PreviewInput } from '../../../../lib/admin/campaign-editor-preview';
import { ErrorState, LoadingState } from '../../../ui';
import styles from './Editor.module.css';

/** Rendering 512 KB of Markdown on every key would stall typing; this waits for a pause. */
const PREVIEW_DELAY_MS = 250;

type RenderPreview = (input: PreviewInput) => string;

function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/**
 * The renderer (marked and sanitize-html, most of the editor's code) as a chunk of its own, fetched
 * once the editor shows: the page and its form are usable before it arrives.
 */
function usePreviewRenderer() {
  const [render, setRender] = useState<RenderPreview | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    import('../../../../lib/admin/campaign-editor-preview').then(
      (m) => live && setRender(() => m.previewDocument),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [attempt]);
  const retry = useCallback(() => {
    setFailed(false);
    setAttempt((n) => n + 1);
  }, []);
  return { render, failed, retry };
}

export function PreviewFrame({ input }: { input: PreviewInput }) {
  const settled = useDebounced(input, PREVIEW_DELAY_MS);
  const { render, failed, retry } = usePreviewRenderer();
  const doc = useMemo(() => (render ? render(settled) : null), [render, settled]);
  return (
    <div className={styles.preview}>
      <p className={styles.previewLabel} id="campaign-preview-label">
        Preview <span className={styles.previewNote}>as subscribers get it</span>
      </p>
      {doc !== null ? (
        <iframe
          className={styles.previewFrame}
          title="Email preview"
          aria-describedby="campaign-preview-label"
          sandbox=""
          srcDoc={doc}
          referrerPolicy="no-referrer"
          data-testid="campaign-preview"
        />
      ) : (
        <div className={styles.previewPending}>
          {failed ? (
            <ErrorState
              title="The preview could not be loaded."
              message="Your text is safe; check the connection and try again."
              onRetry={retry}
            />
          ) : (
            <LoadingState label="Loading the preview…" />
          )}
        </div>
      )}
    </div>
  );
}
