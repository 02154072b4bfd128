// The subscriber's own data on their page: name, email, attributes and internal notes, and (admins)
// the form that edits them. Every saved change lands in the history with who made it.
import { Pencil } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import {
  attributesFromRows,
  parseRawAttributes,
  rowsFromAttributes,
  type EditField,
} from '../../../lib/admin/subscriber-edit';
import type { SubscriberDetail } from '../../../lib/admin/subscriber';
import { useUpdateSubscriber } from '../../../lib/admin/use-subscriber';
import { useAdmin } from '../AdminContext';
import { Button, Card, StatusMessage, TextArea, TextField } from '../../ui';
import { AttributesEditor, type AttributesDraft } from './AttributesEditor';
import styles from './Subscribers.module.css';

function attributeText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function draftOf(attributes: unknown): AttributesDraft {
  const rows = rowsFromAttributes(attributes);
  return rows
    ? { mode: 'rows', rows }
    : { mode: 'json', text: JSON.stringify(attributes, null, 2), rowsPossible: false };
}

export function SubscriberDetailsCard({ detail }: { detail: SubscriberDetail }) {
  const { can } = useAdmin();
  const update = useUpdateSubscriber();
  const [editing, setEditing] = useState(false);
  const [email, setEmail] = useState(detail.email);
  const [name, setName] = useState(detail.name);
  const [notes, setNotes] = useState(detail.notes);
  const [attrs, setAttrs] = useState<AttributesDraft>(() => draftOf(detail.attributes));
  const [rowProblems, setRowProblems] = useState<Record<number, string>>({});
  const [errors, setErrors] = useState<Partial<Record<EditField | 'form', string>>>({});
  const [saved, setSaved] = useState(false);

  const start = () => {
    setEmail(detail.email);
    setName(detail.name);
    setNotes(detail.notes);
    setAttrs(draftOf(detail.attributes));
    setRowProblems({});
    setErrors({});
    setSaved(false);
    setEditing(true);
  };

  const switchMode = () => {
    setErrors({});
    if (attrs.mode === 'rows') {
      const built = attributesFromRows(attrs.rows);
      if (!built.ok) return setRowProblems(built.problems);
      setAttrs({
        mode: 'json',
        text: JSON.stringify(built.attributes, null, 2),
        rowsPossible: true,
      });
      return;
    }
    const parsed = parseRawAttributes(attrs.text);
    if (!parsed.ok) return setErrors({ attributes: parsed.message });
    const rows = rowsFromAttributes(parsed.attributes);
    if (!rows) return setAttrs({ ...attrs, rowsPossible: false });
    setAttrs({ mode: 'rows', rows });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setRowProblems({});
    let attributes;
    if (attrs.mode === 'rows') {
      const built = attributesFromRows(attrs.rows);
      if (!built.ok) {
        setRowProblems(built.problems);
        return setErrors({ attributes: 'Check the attributes marked above.' });
      }
      attributes = built.attributes;
    } else {
      const parsed = parseRawAttributes(attrs.text);
      if (!parsed.ok) return setErrors({ attributes: parsed.message });
      attributes = parsed.attributes;
    }
    const result = await update.run(detail.id, { email, name, attributes, notes });
    if (result.ok) {
      setEditing(false);
      setSaved(true);
    } else {
      setErrors({ [result.field ?? 'form']: result.message });
    }
  };

  if (!editing) {
    const attributes = Object.entries(
      typeof detail.attributes === 'object' &&
        detail.attributes !== null &&
        !Array.isArray(detail.attributes)
        ? detail.attributes
        : {},
    );
    return (
      <Card
        title="Details"
        actions={
          can('manage-subscribers') ? (
            <Button size="sm" icon={<Pencil />} onClick={start}>
              Edit
            </Button>
          ) : null
        }
      >
        {saved ? (
          <StatusMessage tone="success">Saved. The change is in the history.</StatusMessage>
        ) : null}
        <dl className={styles.attributes}>
          <dt>Name</dt>
          <dd>{detail.name || '—'}</dd>
          {attributes.map(([key, value]) => (
            <div key={key} style={{ display: 'contents' }}>
              <dt>{key}</dt>
              <dd>{attributeText(value)}</dd>
            </div>
          ))}
        </dl>
        {attributes.length === 0 ? <p className={styles.meta}>No attributes.</p> : null}
        <h3 className={styles.notesTitle}>Internal notes</h3>
        <p className={styles.notes}>{detail.notes || 'No notes.'}</p>
      </Card>
    );
  }

  return (
    <Card title="Edit details">
      <form className={styles.editForm} onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label="Email"
          type="email"
          autoComplete="off"
          value={email}
          error={errors.email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField
          label="Name"
          optional
          value={name}
          error={errors.name}
          onChange={(e) => setName(e.target.value)}
        />
        <AttributesEditor
          draft={attrs}
          onChange={setAttrs}
          onSwitch={switchMode}
          rowProblems={rowProblems}
          error={errors.attributes ?? null}
          disabled={update.pending}
        />
        <TextArea
          label="Internal notes"
          optional
          hint="Only the team sees these; they are part of the subscriber's own data export."
          rows={4}
          value={notes}
          error={errors.notes}
          onChange={(e) => setNotes(e.target.value)}
        />
        {errors.form ? <StatusMessage tone="error">{errors.form}</StatusMessage> : null}
        <div className={styles.editActions}>
          <Button type="submit" variant="primary" loading={update.pending}>
            Save changes
          </Button>
          <Button onClick={() => setEditing(false)} disabled={update.pending}>
            Cancel
          </Button>
        </div>
      </form>
    </Card>
  );
}
