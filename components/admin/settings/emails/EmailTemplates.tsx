// Settings → Emails: pick the confirmation, welcome or already-subscribed email and edit it. The
// editor is keyed by the kind and whether a saved row exists, so switching or resetting starts
// from what is stored.
import { useState } from 'react';
import {
  SYSTEM_EMAIL_KINDS,
  SYSTEM_EMAIL_LABELS,
  type SystemEmailKind,
} from '../../../../lib/email-render/system-emails';
import { useSettings } from '../../../../lib/admin/use-settings';
import { ErrorState, LoadingState } from '../../../ui';
import { useAdmin } from '../../AdminLayout';
import styles from './Emails.module.css';
import { TemplateEditor } from './TemplateEditor';
import { useEmailTemplates } from './use-email-templates';

export function EmailTemplates() {
  const { member, role } = useAdmin();
  const templates = useEmailTemplates();
  const settings = useSettings();
  const [kind, setKind] = useState<SystemEmailKind>('confirmation');
  const editable = role === 'admin' || role === 'owner';

  let content;
  const error = templates.error ?? settings.error;
  if (error && (!templates.data || !settings.data)) {
    content = (
      <ErrorState
        title="The emails could not be loaded."
        message={error.message}
        onRetry={() => {
          void templates.mutate();
          void settings.mutate();
        }}
      />
    );
  } else if (!templates.data || !settings.data) {
    content = <LoadingState label="Loading the emails…" />;
  } else {
    const saved = templates.data[kind];
    content = (
      <TemplateEditor
        key={`${kind}:${saved ? 'saved' : 'default'}`}
        kind={kind}
        saved={saved}
        editable={editable}
        settings={settings.data}
        email={member.email}
        save={async (template) => (await templates.save(kind, template))?.message ?? null}
        reset={async () => (await templates.reset(kind))?.message ?? null}
      />
    );
  }

  return (
    <div className={styles.page}>
      <div className={styles.kinds} role="group" aria-label="Email">
        {SYSTEM_EMAIL_KINDS.map((k) => (
          <button
            key={k}
            type="button"
            className={styles.kind}
            aria-pressed={k === kind}
            onClick={() => setKind(k)}
          >
            {SYSTEM_EMAIL_LABELS[k].title}
          </button>
        ))}
      </div>
      <p className={styles.hint}>{SYSTEM_EMAIL_LABELS[kind].about}</p>
      {content}
    </div>
  );
}
