// Create/edit form for one list in a dialog: browser checks first (SPEC §5), then the database's
// answer placed at its field; nothing typed is lost on an error. Changing an existing list's slug
// asks for a confirmation first: links and embeds with the old slug stop working (no alias kept).
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  EMPTY_LIST_FORM,
  formFromList,
  slugify,
  validateList,
  type ListErrors,
  type ListField,
  type ListForm,
  type ListRow,
} from '../../lib/admin/list-form';
import type { ListWriteResult } from '../../lib/admin/lists';
import { Button, Checkbox, Dialog, SelectField, StatusMessage, TextArea, TextField } from '../ui';
import styles from './ListEditor.module.css';

export interface ListEditorProps {
  open: boolean;
  /** The list being edited, or null to create one. */
  list: ListRow | null;
  onClose: () => void;
  onSave: (form: ListForm) => Promise<ListWriteResult>;
  onSaved: (list: ListRow) => void;
}

const FIELDS: ListField[] = ['name', 'slug', 'description'];

export function ListEditor({ open, list, onClose, onSave, onSaved }: ListEditorProps) {
  const [form, setForm] = useState<ListForm>(EMPTY_LIST_FORM);
  const [errors, setErrors] = useState<ListErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // While creating, the slug follows the name until the user edits the slug themselves.
  const [slugTouched, setSlugTouched] = useState(false);
  const [slugAck, setSlugAck] = useState(false);
  const [slugAckError, setSlugAckError] = useState<string | null>(null);
  const formId = useId();
  const refs = {
    name: useRef<HTMLInputElement>(null),
    slug: useRef<HTMLInputElement>(null),
    description: useRef<HTMLTextAreaElement>(null),
  };

  useEffect(() => {
    if (!open) return;
    setForm(list ? formFromList(list) : EMPTY_LIST_FORM);
    setErrors({});
    setFormError(null);
    setSlugTouched(Boolean(list));
    setSlugAck(false);
    setSlugAckError(null);
  }, [open, list]);
  const oldSlug = list && form.slug !== list.slug ? list.slug : null;

  function set<K extends keyof ListForm>(name: K, value: ListForm[K]) {
    setForm((f) => {
      const next = { ...f, [name]: value };
      if (name === 'name' && !slugTouched) next.slug = slugify(String(value));
      return next;
    });
    if (name in errors) setErrors((e) => ({ ...e, [name]: undefined }));
  }

  function focusFirst(found: ListErrors) {
    const first = FIELDS.find((f) => found[f]);
    if (first) refs[first].current?.focus();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    setFormError(null);
    const found = validateList(form);
    setErrors(found);
    if (Object.values(found).some(Boolean)) {
      focusFirst(found);
      return;
    }
    if (oldSlug && !slugAck) {
      setSlugAckError('Confirm that links with the old slug will stop working, or keep the slug.');
      return;
    }
    setSaving(true);
    try {
      const result = await onSave(form);
      if (result.ok) {
        onSaved(result.list);
        return;
      }
      if (result.field) {
        const next = { [result.field]: result.message };
        setErrors(next);
        focusFirst(next);
      } else {
        setFormError(result.message);
      }
    } finally {
      setSaving(false);
    }
  }

  const title = list ? `Edit ${list.name}` : 'New list';
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      busy={saving}
      footer={
        <>
          <Button onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          {/* In the dialog's footer, outside the form: `form` ties it to the form. */}
          <Button type="submit" form={formId} variant="primary" loading={saving}>
            {list ? 'Save changes' : 'Create list'}
          </Button>
        </>
      }
    >
      <form id={formId} className={styles.form} onSubmit={submit} noValidate>
        <TextField
          ref={refs.name}
          label="Name"
          value={form.name}
          onChange={(e) => set('name', e.target.value)}
          error={errors.name}
          maxLength={100}
          required
          autoComplete="off"
        />
        <TextField
          ref={refs.slug}
          label="Slug"
          value={form.slug}
          onChange={(e) => {
            setSlugTouched(true);
            set('slug', e.target.value.toLowerCase());
          }}
          error={errors.slug}
          hint="Lower-case letters, digits and hyphens. Used in signup and embed links."
          maxLength={60}
          required
          autoComplete="off"
          spellCheck={false}
          className={styles.mono}
        />
        {oldSlug ? (
          <div className={styles.form}>
            <StatusMessage tone="error">
              Links and embeds that use the old slug <code>{oldSlug}</code> stop working: signup
              links (<code>/?list={oldSlug}</code>), embedded forms (
              <code>/embed/?list={oldSlug}</code>) and, on a waitlist, the referral and place links
              already shared. The list&apos;s subscribers stay.
            </StatusMessage>
            <Checkbox
              label={`Change the slug anyway; links with “${oldSlug}” break`}
              checked={slugAck}
              error={slugAckError}
              onChange={(e) => {
                setSlugAck(e.target.checked);
                setSlugAckError(null);
              }}
            />
          </div>
        ) : null}
        <TextArea
          ref={refs.description}
          label="Description"
          optional
          value={form.description}
          onChange={(e) => set('description', e.target.value)}
          error={errors.description}
          hint="Shown on the signup form and the preferences page."
          rows={2}
        />
        <div className={styles.pair}>
          <SelectField
            label="Visibility"
            hint="Public lists are on the signup form."
            value={form.visibility}
            onChange={(e) => set('visibility', e.target.value as ListForm['visibility'])}
          >
            <option value="public">Public</option>
            <option value="private">Private</option>
          </SelectField>
          <SelectField
            label="Opt-in"
            hint="Double asks new subscribers to confirm by email."
            value={form.optin}
            onChange={(e) => set('optin', e.target.value as ListForm['optin'])}
          >
            <option value="double">Double opt-in</option>
            <option value="single">Single opt-in</option>
          </SelectField>
        </div>
        <Checkbox
          label="Waitlist"
          hint="Confirmed subscribers get a position and a referral link; referrals move them up."
          checked={form.waitlist}
          onChange={(e) => set('waitlist', e.target.checked)}
        />
        {formError ? <StatusMessage tone="error">{formError}</StatusMessage> : null}
      </form>
    </Dialog>
  );
}
