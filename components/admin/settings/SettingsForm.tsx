// Site identity, sender identity, postal address and the switches: the owner edits and saves (errors
// at their field, nothing typed lost); everyone else reads the same form, read-only, with a note.
import { Save } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  LIMITS,
  normalizeForm,
  toForm,
  validateForm,
  type FieldErrors,
  type Settings,
  type SettingsForm as Form,
} from '../../../lib/admin/settings';
import { useSaveSettings } from '../../../lib/admin/use-settings';
import { Button, Card, Checkbox, StatusMessage, TextArea, TextField } from '../../ui';
import { accentProblem, normalizeAccent } from '../../../lib/email-render/accent';
import { LogoField } from './LogoField';
import styles from './Settings.module.css';

type Errors = FieldErrors & { form?: string };

export function SettingsForm({ settings, editable }: { settings: Settings; editable: boolean }) {
  const [form, setForm] = useState<Form>(() => toForm(settings));
  const [errors, setErrors] = useState<Errors>({});
  const [saved, setSaved] = useState(false);
  const [logoSaving, setLogoSaving] = useState(false);
  const { save, pending } = useSaveSettings();
  const formRef = useRef<HTMLFormElement>(null);
  // Bumped when a save is refused at a field: focus then moves to the first invalid field, as on
  // the other admin forms, instead of staying on Save.
  const [refused, setRefused] = useState(0);
  useEffect(() => {
    if (refused) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refused]);

  const set = <K extends keyof Form>(name: K, value: Form[K]) => {
    setForm((f) => ({ ...f, [name]: value }));
    setSaved(false);
    setErrors((e) => ({ ...e, [name]: undefined, form: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const clean = { ...normalizeForm(form), accent_color: normalizeAccent(form.accent_color) };
    const problems = validateForm(clean);
    const accent = accentProblem(clean.accent_color);
    if (accent) problems.accent_color = accent;
    setErrors(problems);
    setSaved(false);
    if (Object.keys(problems).length > 0) {
      setRefused((n) => n + 1);
      return;
    }
    const outcome = await save(clean);
    if (outcome.ok) {
      setForm(toForm(outcome.settings));
      setSaved(true);
    } else {
      setErrors({ [outcome.field]: outcome.message });
      if (outcome.field !== 'form') setRefused((n) => n + 1);
    }
  };

  // The logo is saved as soon as it is uploaded or removed: the file is already in storage.
  const changeLogo = async (path: string | null) => {
    setLogoSaving(true);
    setErrors((e) => ({ ...e, logo_path: undefined }));
    const outcome = await save({ logo_path: path });
    setLogoSaving(false);
    if (outcome.ok) setForm((f) => ({ ...f, logo_path: outcome.settings.logo_path }));
    else setErrors((e) => ({ ...e, logo_path: outcome.message }));
  };

  const text = (name: 'site_name' | 'tagline' | 'sender_name' | 'sender_email') => ({
    value: form[name],
    error: errors[name],
    readOnly: !editable,
    onChange: (e: { target: { value: string } }) => set(name, e.target.value),
  });

  return (
    <form ref={formRef} className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
      {!editable ? (
        <StatusMessage tone="info">Only the owner can change these settings.</StatusMessage>
      ) : null}
      <Card title="Site">
        <div className={styles.grid}>
          <TextField
            label="Site name"
            maxLength={LIMITS.site_name}
            required
            {...text('site_name')}
          />
          <div className={styles.wide}>
            <TextField label="Tagline" optional maxLength={LIMITS.tagline} {...text('tagline')} />
          </div>
          <div className={styles.accent}>
            <TextField
              label="Accent colour"
              hint="The emails' top rule, buttons and links, as #rrggbb. It must be dark enough for white text (4.5:1)."
              maxLength={7}
              spellCheck={false}
              value={form.accent_color}
              error={errors.accent_color}
              readOnly={!editable}
              onChange={(e) => set('accent_color', e.target.value)}
            />
            <span
              className={styles.swatch}
              aria-hidden="true"
              style={{ background: normalizeAccent(form.accent_color) }}
            />
          </div>
          <div className={styles.wide}>
            <LogoField
              path={form.logo_path}
              editable={editable}
              saving={logoSaving}
              error={errors.logo_path ?? null}
              onChange={(path) => void changeLogo(path)}
            />
          </div>
        </div>
      </Card>
      <Card title="Sender">
        <div className={styles.grid}>
          <TextField
            label="Sender name"
            maxLength={LIMITS.sender_name}
            required
            {...text('sender_name')}
          />
          <TextField
            label="Sender email"
            type="email"
            required
            hint="Campaigns are sent from this address."
            {...text('sender_email')}
          />
          <TextField
            label="Reply-to address"
            type="email"
            optional
            value={form.reply_to ?? ''}
            error={errors.reply_to}
            readOnly={!editable}
            onChange={(e) => set('reply_to', e.target.value)}
          />
          <div className={styles.wide}>
            <TextArea
              label="Postal address"
              hint="Printed in the footer of every email, as anti-spam laws require."
              rows={3}
              maxLength={LIMITS.postal_address}
              value={form.postal_address}
              error={errors.postal_address}
              readOnly={!editable}
              onChange={(e) => set('postal_address', e.target.value)}
            />
          </div>
        </div>
      </Card>
      <Card title="Privacy and tracking">
        <div className={styles.switches}>
          <Checkbox
            label="Show the subscriber count on the home page"
            checked={form.show_subscriber_count}
            disabled={!editable}
            onChange={(e) => set('show_subscriber_count', e.target.checked)}
          />
          <Checkbox
            label="Track opens"
            hint="Adds a tracking pixel to campaigns."
            checked={form.track_opens}
            disabled={!editable}
            onChange={(e) => set('track_opens', e.target.checked)}
          />
          <Checkbox
            label="Track clicks"
            hint="Sends links through a redirect that counts clicks."
            checked={form.track_clicks}
            disabled={!editable}
            onChange={(e) => set('track_clicks', e.target.checked)}
          />
        </div>
      </Card>
      {editable ? (
        <div className={styles.saveBar}>
          <Button type="submit" variant="primary" icon={<Save />} loading={pending && !logoSaving}>
            Save settings
          </Button>
          {saved ? <StatusMessage tone="success">Settings saved.</StatusMessage> : null}
          {errors.form ? <StatusMessage tone="error">{errors.form}</StatusMessage> : null}
          {Object.keys(errors).some(
            (k) => k !== 'form' && k !== 'logo_path' && errors[k as keyof Errors],
          ) ? (
            <StatusMessage tone="error">Check the highlighted fields.</StatusMessage>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
