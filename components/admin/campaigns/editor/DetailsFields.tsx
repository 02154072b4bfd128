// Name, subject, preheader, the sender override and the archive (with its slug, made from the
// subject while left empty): every field labelled, its error beside it. `contentOnly` (a paused
// campaign) leaves the sender, archive and slug as they were sent.
import { slugFromSubject } from '../../../../lib/admin/campaign-editor-form';
import type { CampaignErrors, CampaignForm } from '../../../../lib/admin/campaign-editor-form';
import { Checkbox, TextField } from '../../../ui';
import styles from './Editor.module.css';

export function DetailsFields({
  form,
  errors,
  readOnly,
  contentOnly = false,
  onChange,
}: {
  form: CampaignForm;
  errors: CampaignErrors;
  readOnly: boolean;
  contentOnly?: boolean;
  onChange: <K extends keyof CampaignForm>(name: K, value: CampaignForm[K]) => void;
}) {
  const suggested = slugFromSubject(form.subject);
  const fixed = readOnly || contentOnly;
  return (
    <div className={styles.fields}>
      <TextField
        label="Name"
        hint="For the team only; subscribers see the subject."
        value={form.name}
        onChange={(e) => onChange('name', e.target.value)}
        error={errors.name}
        maxLength={200}
        readOnly={readOnly}
        autoComplete="off"
        required
      />
      <TextField
        label="Subject"
        value={form.subject}
        onChange={(e) => onChange('subject', e.target.value)}
        error={errors.subject}
        hint={`${form.subject.length} of 200 characters.`}
        maxLength={200}
        readOnly={readOnly}
        autoComplete="off"
        required
      />
      <TextField
        label="Preheader"
        optional
        hint="The line inbox lists show after the subject."
        value={form.preheader}
        onChange={(e) => onChange('preheader', e.target.value)}
        error={errors.preheader}
        maxLength={200}
        readOnly={readOnly}
        autoComplete="off"
      />
      <div className={styles.pair}>
        <TextField
          label="From name"
          optional
          hint="Empty: the sender name in Settings."
          value={form.fromName}
          onChange={(e) => onChange('fromName', e.target.value)}
          error={errors.fromName}
          maxLength={100}
          readOnly={fixed}
          autoComplete="off"
        />
        <TextField
          label="From email"
          optional
          type="email"
          hint="Empty: the sender address in Settings."
          value={form.fromEmail}
          onChange={(e) => onChange('fromEmail', e.target.value)}
          error={errors.fromEmail}
          maxLength={254}
          readOnly={fixed}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      <Checkbox
        label="Show in the public archive"
        hint="Once sent, the issue appears at /archive/ for anyone to read."
        checked={form.archive}
        disabled={fixed}
        onChange={(e) => onChange('archive', e.target.checked)}
      />
      {form.archive || form.slug ? (
        <TextField
          label="Archive slug"
          optional={!form.archive}
          value={form.slug}
          placeholder={suggested || 'may-news'}
          onChange={(e) => onChange('slug', e.target.value.toLowerCase())}
          error={errors.slug}
          hint={
            form.slug
              ? 'Lower-case letters, digits and hyphens; the address of the archived issue.'
              : `Left empty, it is made from the subject${suggested ? `: ${suggested}` : ''}.`
          }
          maxLength={96}
          readOnly={fixed}
          autoComplete="off"
          spellCheck={false}
          className={styles.mono}
        />
      ) : null}
    </div>
  );
}
