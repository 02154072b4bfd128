// Settings → Emails: pick the confirmation or already-subscribed email and edit it. The editor is
// keyed by the kind and whether a saved row exists, so switching or resetting starts from what is
// stored. The welcome is an automation per public list now (issue 24): a line links to them.
import Link from 'next/link';
import { useState } from 'react';
import {
  SYSTEM_EMAIL_KINDS,
  SYSTEM_EMAIL_LABELS,
  type SystemEmailKind,
} from '../../../../lib/email-render/system-emails';
import { useSettings } from '../../../../lib/admin/use-settings';
import { ErrorState, LoadingState, StatusMessage } from '../../../ui';
import { useAdmin } from '../../AdminLayout';
import styles from './Emails.module.css';
import { TemplateEditor } from './TemplateEditor';
import type { WelcomeAutomation } from '../../../../lib/admin/automations';
import { useEmailTemplates, useWelcomeAutomations } from './use-email-templates';

/**
 * Where the welcome went: a link to each list's welcome automation, or to Automations (none left,
 * or they could not be read). Shown with the editor, once both are loaded, so nothing moves.
 */
function WelcomeMoved({ found }: { found: WelcomeAutomation[] }) {
  return (
    <StatusMessage tone="info">
      <span className={styles.welcomeMoved}>
        The welcome is now an automation — edit it in{' '}
        {found.length === 0 ? (
          <Link href="/admin/automations/">Automations</Link>
        ) : (
          <>
            Automations:{' '}
            {found.map((w, i) => (
              <span key={w.id}>
                {i > 0 ? ', ' : ''}
                <Link href={`/admin/automations/edit/?id=${w.id}`}>{w.name}</Link>
                {w.status === 'active' ? '' : ` (${w.status})`}
              </span>
            ))}
          </>
        )}
        .
      </span>
    </StatusMessage>
  );
}

export function EmailTemplates() {
  const { member, role } = useAdmin();
  const templates = useEmailTemplates();
  const settings = useSettings();
  const welcomes = useWelcomeAutomations();
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
  } else if (!templates.data || !settings.data || (!welcomes.data && !welcomes.error)) {
    content = <LoadingState label="Loading the emails…" />;
  } else {
    const saved = templates.data[kind];
    content = (
      <>
        <WelcomeMoved found={welcomes.data ?? []} />
        <p className={styles.hint}>{SYSTEM_EMAIL_LABELS[kind].about}</p>
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
      </>
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
      {content}
    </div>
  );
}
