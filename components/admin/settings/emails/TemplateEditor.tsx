// One subscriber email's template: subject, preheader and Markdown body with the Insert merge tag
// menu of its kind, Save, Send test (the form as it is, to oneself) and Reset to default; the
// preview beside it. Members who may not edit (below admin) read it, with a note.
import { RotateCcw, Save, Send } from 'lucide-react';
import { useRef, useState } from 'react';
import type { BrandingRow } from '../../../../lib/email-render/branding';
import {
  DEFAULT_TEMPLATES,
  SYSTEM_MERGE_TAGS,
  type SystemEmailKind,
  type SystemTemplate,
} from '../../../../lib/email-render/system-emails';
import { Button, ConfirmDialog, StatusMessage, TextArea, TextField } from '../../../ui';
import styles from './Emails.module.css';
import { TemplatePreview } from './TemplatePreview';
import { sendTestEmail } from './use-email-templates';

type Field = keyof SystemTemplate;
type Notice = { tone: 'success' | 'error'; text: string } | null;

export function TemplateEditor(props: {
  kind: SystemEmailKind;
  saved: SystemTemplate | undefined;
  editable: boolean;
  settings: BrandingRow;
  email: string;
  save: (template: SystemTemplate) => Promise<string | null>;
  reset: () => Promise<string | null>;
}) {
  const { kind, saved, editable } = props;
  const [form, setForm] = useState<SystemTemplate>(saved ?? DEFAULT_TEMPLATES[kind]);
  const [busy, setBusy] = useState<'save' | 'test' | 'reset' | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [confirming, setConfirming] = useState(false);
  const [resetError, setResetError] = useState<string | null>(null);
  const [lastField, setLastField] = useState<Field>('body_md');
  const body = useRef<HTMLTextAreaElement>(null);

  const set = (field: Field, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setNotice(null);
  };

  function insertTag(tag: string) {
    const text = `{{ ${tag} }}`;
    if (lastField !== 'body_md') {
      set(lastField, `${form[lastField]}${text}`);
      return;
    }
    const area = body.current;
    const start = area?.selectionStart ?? form.body_md.length;
    const end = area?.selectionEnd ?? start;
    set('body_md', form.body_md.slice(0, start) + text + form.body_md.slice(end));
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(start + text.length, start + text.length);
    });
  }

  async function run(action: 'save' | 'test') {
    setBusy(action);
    const error = action === 'save' ? await props.save(form) : await sendTestEmail(kind, form);
    setBusy(null);
    setNotice(
      error
        ? { tone: 'error', text: error }
        : {
            tone: 'success',
            text:
              action === 'save'
                ? 'Saved. New emails use this wording.'
                : `Test sent to ${props.email}.`,
          },
    );
  }

  async function confirmReset() {
    setBusy('reset');
    const error = await props.reset();
    setBusy(null);
    if (error) {
      setResetError(error);
      return;
    }
    setConfirming(false);
    setForm(DEFAULT_TEMPLATES[kind]);
    setNotice({ tone: 'success', text: 'Reset. New emails use the default wording.' });
  }

  const field = (name: Field) => ({
    value: form[name],
    readOnly: !editable,
    onFocus: () => setLastField(name),
    onChange: (e: { target: { value: string } }) => set(name, e.target.value),
  });

  return (
    <div className={styles.grid}>
      <form
        className={styles.form}
        aria-label="Template"
        onSubmit={(e) => {
          e.preventDefault();
          void run('save');
        }}
      >
        {!editable ? (
          <StatusMessage tone="info">
            Only admins and the owner can change these emails.
          </StatusMessage>
        ) : null}
        <p className={styles.hint}>
          {saved ? 'Your wording is in use.' : 'The default wording is in use.'}
        </p>
        <TextField label="Subject" maxLength={200} required {...field('subject')} />
        <TextField label="Preheader" optional maxLength={200} {...field('preheader')} />
        {editable ? (
          <div className={styles.toolbar}>
            <select
              className={styles.tagMenu}
              aria-label="Insert merge tag"
              value=""
              onChange={(e) => {
                if (e.target.value) insertTag(e.target.value);
              }}
            >
              <option value="">Insert merge tag…</option>
              {SYSTEM_MERGE_TAGS[kind].map((t) => (
                <option key={t.tag} value={t.tag}>
                  {t.label}
                </option>
              ))}
            </select>
            <span className={styles.hint}>A link alone on its line becomes a button.</span>
          </div>
        ) : null}
        <TextArea
          ref={body}
          label="Body (Markdown)"
          maxLength={20000}
          className={styles.body}
          {...field('body_md')}
        />
        {editable ? (
          <div className={styles.actions}>
            <Button type="submit" variant="primary" icon={<Save />} loading={busy === 'save'}>
              Save
            </Button>
            <Button icon={<Send />} loading={busy === 'test'} onClick={() => void run('test')}>
              Send test to me
            </Button>
            <Button
              icon={<RotateCcw />}
              disabled={!saved}
              onClick={() => {
                setResetError(null);
                setConfirming(true);
              }}
            >
              Reset to default
            </Button>
          </div>
        ) : null}
        {notice ? <StatusMessage tone={notice.tone}>{notice.text}</StatusMessage> : null}
      </form>
      <TemplatePreview kind={kind} template={form} settings={props.settings} email={props.email} />
      <ConfirmDialog
        open={confirming}
        title="Reset to the default wording?"
        confirmLabel="Reset to default"
        cancelLabel="Keep my wording"
        busy={busy === 'reset'}
        error={resetError}
        onConfirm={() => void confirmReset()}
        onCancel={() => setConfirming(false)}
      >
        <p>
          Your subject, preheader and body for this email are deleted, and new emails use the
          default.
        </p>
      </ConfirmDialog>
    </div>
  );
}
