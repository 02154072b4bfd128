// The preview of a subscriber email: the renderer the functions send with (lib/email-render/
// system-preview.ts, loaded as its own chunk), in a sandboxed frame at desktop or phone width,
// with the subject, or the template's error and line.
import { useEffect, useMemo, useState } from 'react';
import type { BrandingRow } from '../../../../lib/email-render/branding';
import type { SystemPreview } from '../../../../lib/email-render/system-preview';
import type { SystemEmailKind, SystemTemplate } from '../../../../lib/email-render/system-emails';
import { ErrorState, LoadingState, StatusMessage } from '../../../ui';
import styles from './Emails.module.css';

type Render = typeof import('../../../../lib/email-render/system-preview').previewSystemEmail;

export function TemplatePreview({
  kind,
  template,
  settings,
  email,
}: {
  kind: SystemEmailKind;
  template: SystemTemplate;
  settings: BrandingRow;
  email: string;
}) {
  const [render, setRender] = useState<Render | null>(null);
  const [failed, setFailed] = useState(false);
  const [phone, setPhone] = useState(false);
  const [settled, setSettled] = useState(template);
  useEffect(() => {
    let live = true;
    import('../../../../lib/email-render/system-preview').then(
      (m) => live && setRender(() => m.previewSystemEmail),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  // Rendering on every key would stall typing: the preview follows a moment after a pause.
  useEffect(() => {
    const timer = setTimeout(() => setSettled(template), 250);
    return () => clearTimeout(timer);
  }, [template]);
  const result: SystemPreview | null = useMemo(
    () =>
      render ? render(kind, settled, { settings, siteUrl: window.location.origin, email }) : null,
    [render, kind, settled, settings, email],
  );

  let content;
  if (failed)
    content = (
      <ErrorState
        title="The preview could not be loaded."
        message="Reload the page to try again."
      />
    );
  else if (!result) content = <LoadingState label="Loading the preview…" />;
  else if (!result.ok) content = <StatusMessage tone="error">{result.error}</StatusMessage>;
  else
    content = (
      <>
        <p className={styles.subject}>
          <strong>Subject:</strong> {result.subject}
        </p>
        {result.unknown.length ? (
          <StatusMessage tone="info">
            Not a merge tag of this email (it will be empty): {result.unknown.join(', ')}
          </StatusMessage>
        ) : null}
        <div className={phone ? styles.phone : undefined}>
          <iframe
            className={styles.frame}
            title="Email preview"
            sandbox=""
            srcDoc={result.html}
            data-testid="email-preview"
          />
        </div>
      </>
    );
  return (
    <section aria-label="Preview" className={styles.form}>
      <div className={styles.previewBar} role="group" aria-label="Preview width">
        <button
          type="button"
          className={styles.width}
          aria-pressed={!phone}
          onClick={() => setPhone(false)}
        >
          Desktop
        </button>
        <button
          type="button"
          className={styles.width}
          aria-pressed={phone}
          onClick={() => setPhone(true)}
        >
          Phone
        </button>
        <span className={styles.hint}>Sample values; a test send uses the same.</span>
      </div>
      {content}
    </section>
  );
}
