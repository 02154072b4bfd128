// The live preview: the email as subscribers get it — the shared renderer's own document, footer
// included, for a sample reader (lib/admin/campaign-editor-preview.ts) — a moment after typing
// stops, in a sandboxed iframe (no scripts, no same-origin access), at desktop or phone width.
// A merge tag that cannot render shows its error and line instead; an unknown one a warning.
import { Monitor, Smartphone } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type {
  PreviewContext,
  PreviewInput,
  PreviewResult,
} from '../../../../lib/admin/campaign-editor-preview';
import { useSettings } from '../../../../lib/admin/use-settings';
import { ErrorState, LoadingState, StatusMessage } from '../../../ui';
import { useAdmin } from '../../AdminLayout';
import styles from './Editor.module.css';

/** Rendering 512 KB of Markdown on every key would stall typing; this waits for a pause. */
const PREVIEW_DELAY_MS = 250;

type RenderPreview = (input: PreviewInput, context: PreviewContext) => PreviewResult;
type Width = 'desktop' | 'phone';

function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/**
 * The renderer (marked, sanitize-html and LiquidJS, most of the editor's code) as a chunk of its
 * own, fetched once the editor shows: the page and its form are usable before it arrives.
 */
function usePreviewRenderer() {
  const [render, setRender] = useState<RenderPreview | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    import('../../../../lib/admin/campaign-editor-preview').then(
      (m) => live && setRender(() => m.previewCampaign),
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

function WidthToggle({ width, onChange }: { width: Width; onChange: (w: Width) => void }) {
  const option = (value: Width, label: string, icon: ReactNode) => (
    <button
      type="button"
      className={styles.widthOption}
      aria-pressed={width === value}
      onClick={() => onChange(value)}
    >
      {icon}
      {label}
    </button>
  );
  return (
    <div className={styles.widthToggle} role="group" aria-label="Preview width">
      {option('desktop', 'Desktop', <Monitor aria-hidden="true" />)}
      {option('phone', 'Phone', <Smartphone aria-hidden="true" />)}
    </div>
  );
}

export function PreviewFrame({ input }: { input: PreviewInput }) {
  const settled = useDebounced(input, PREVIEW_DELAY_MS);
  const { render, failed, retry } = usePreviewRenderer();
  const settings = useSettings();
  const { member } = useAdmin();
  const [width, setWidth] = useState<Width>('desktop');
  const siteName = settings.data?.site_name;
  const postal = settings.data?.postal_address;
  const accent = settings.data?.accent_color;
  const logo = settings.data?.logo_path;
  const result = useMemo(() => {
    if (!render || siteName === undefined) return null;
    const context: PreviewContext = {
      settings: {
        site_name: siteName,
        postal_address: postal ?? '',
        accent_color: accent,
        logo_path: logo,
      },
      siteUrl: window.location.origin,
      email: member.email,
    };
    return render(settled, context);
  }, [render, settled, siteName, postal, accent, logo, member.email]);

  let content: ReactNode;
  if (failed || (settings.error && !settings.data)) {
    content = (
      <ErrorState
        title="The preview could not be loaded."
        message="Your text is safe; check the connection and try again."
        onRetry={() => {
          retry();
          void settings.mutate();
        }}
      />
    );
  } else if (result === null) {
    content = <LoadingState label="Loading the preview…" />;
  } else if (!result.ok) {
    content = (
      <StatusMessage tone="error">
        {result.error}. Fix it to see the preview; nothing can be sent until then.
      </StatusMessage>
    );
  }

  return (
    <div className={styles.preview}>
      <div className={styles.previewHead}>
        <p className={styles.previewLabel} id="campaign-preview-label">
          Preview <span className={styles.previewNote}>as subscribers get it</span>
        </p>
        <WidthToggle width={width} onChange={setWidth} />
      </div>
      {result?.ok ? (
        <>
          <p className={styles.previewSubject} data-testid="campaign-preview-subject">
            <span className={styles.previewNote}>Subject:</span> {result.subject || '(no subject)'}
          </p>
          <iframe
            className={`${styles.previewFrame} ${width === 'phone' ? styles.previewPhone : ''}`}
            title={`Email preview, ${width} width`}
            aria-describedby="campaign-preview-label"
            sandbox=""
            srcDoc={result.html}
            referrerPolicy="no-referrer"
            data-testid="campaign-preview"
            data-width={width}
          />
          {result.unknown.length > 0 ? (
            <StatusMessage tone="info">
              Unknown merge {result.unknown.length === 1 ? 'tag' : 'tags'}:{' '}
              {result.unknown.map((name) => `{{ ${name} }}`).join(', ')}. They will be empty in the
              email; check the spelling or choose from Insert merge tag.
            </StatusMessage>
          ) : null}
        </>
      ) : (
        <div className={styles.previewPending}>{content}</div>
      )}
    </div>
  );
}
