// The attributes part of the subscriber edit form: typed key/value rows (text, number, true/false,
// date) or, switched over, the raw JSON object. Values that rows cannot hold (lists, objects) open
// in raw JSON only, so nothing is lost by editing.
import { Braces, Plus, Rows3, X } from 'lucide-react';
import type { AttributeRow, AttributeType } from '../../../lib/admin/subscriber-edit';
import { Button, SelectField, TextArea, TextField } from '../../ui';
import styles from './Subscribers.module.css';

export type AttributesDraft =
  { mode: 'rows'; rows: AttributeRow[] } | { mode: 'json'; text: string; rowsPossible: boolean };

const TYPES: Array<{ value: AttributeType; label: string }> = [
  { value: 'text', label: 'Text' },
  { value: 'number', label: 'Number' },
  { value: 'boolean', label: 'True/false' },
  { value: 'date', label: 'Date' },
];

export function AttributesEditor({
  draft,
  onChange,
  onSwitch,
  rowProblems,
  error,
  disabled,
}: {
  draft: AttributesDraft;
  onChange: (draft: AttributesDraft) => void;
  /** Switches between rows and JSON (the parent converts and may refuse with `error`). */
  onSwitch: () => void;
  rowProblems: Record<number, string>;
  error: string | null;
  disabled: boolean;
}) {
  const switchButton = (
    <Button
      size="sm"
      icon={draft.mode === 'rows' ? <Braces /> : <Rows3 />}
      onClick={onSwitch}
      disabled={disabled || (draft.mode === 'json' && !draft.rowsPossible)}
    >
      {draft.mode === 'rows' ? 'Edit as JSON' : 'Edit as rows'}
    </Button>
  );

  if (draft.mode === 'json') {
    return (
      <fieldset className={styles.attrEditor} disabled={disabled}>
        <legend>Attributes</legend>
        <TextArea
          label="Attributes (JSON object)"
          value={draft.text}
          rows={8}
          spellCheck={false}
          className={styles.mono}
          error={error ?? undefined}
          hint={
            draft.rowsPossible ? undefined : 'Lists and nested objects can be edited as JSON only.'
          }
          onChange={(e) => onChange({ ...draft, text: e.target.value })}
        />
        <div className={styles.attrActions}>{switchButton}</div>
      </fieldset>
    );
  }

  const setRow = (i: number, row: Partial<AttributeRow>) =>
    onChange({ mode: 'rows', rows: draft.rows.map((r, j) => (j === i ? { ...r, ...row } : r)) });

  return (
    <fieldset className={styles.attrEditor} disabled={disabled}>
      <legend>Attributes</legend>
      {draft.rows.length === 0 ? <p className={styles.meta}>No attributes.</p> : null}
      {draft.rows.map((row, i) => (
        <div className={styles.attrRow} key={i}>
          <TextField
            label="Attribute name"
            value={row.key}
            onChange={(e) => setRow(i, { key: e.target.value })}
          />
          <SelectField
            label="Type"
            value={row.type}
            onChange={(e) => {
              const type = e.target.value as AttributeType;
              setRow(i, { type, value: type === 'boolean' ? 'true' : row.value });
            }}
          >
            {TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </SelectField>
          {row.type === 'boolean' ? (
            <SelectField
              label="Value"
              value={row.value}
              error={rowProblems[i]}
              onChange={(e) => setRow(i, { value: e.target.value })}
            >
              <option value="true">true</option>
              <option value="false">false</option>
            </SelectField>
          ) : (
            <TextField
              label="Value"
              type={row.type === 'date' ? 'date' : 'text'}
              inputMode={row.type === 'number' ? 'decimal' : undefined}
              value={row.value}
              error={rowProblems[i]}
              onChange={(e) => setRow(i, { value: e.target.value })}
            />
          )}
          <Button
            size="sm"
            variant="ghost"
            icon={<X />}
            aria-label={`Remove attribute ${row.key || i + 1}`}
            onClick={() => onChange({ mode: 'rows', rows: draft.rows.filter((_, j) => j !== i) })}
          />
        </div>
      ))}
      {error ? (
        <p className={styles.fieldError} role="alert">
          {error}
        </p>
      ) : null}
      <div className={styles.attrActions}>
        <Button
          size="sm"
          icon={<Plus />}
          onClick={() =>
            onChange({
              mode: 'rows',
              rows: [...draft.rows, { key: '', type: 'text', value: '' }],
            })
          }
        >
          Add attribute
        </Button>
        {switchButton}
      </div>
    </fieldset>
  );
}
