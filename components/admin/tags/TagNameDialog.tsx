// The name of a tag in a dialog: a new tag, or renaming one. The browser checks the name first (the
// rules the database applies); a name another tag has is told at the field; nothing typed is lost.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { MAX_TAG_LENGTH, tagNameProblem, tagWriteError, type Tag } from '../../../lib/admin/tags';
import type { QueryError } from '../../../lib/use-query';
import { Button, Dialog, StatusMessage, TextField } from '../../ui';
import styles from './TagsView.module.css';

export interface TagNameDialogProps {
  open: boolean;
  /** The tag being renamed, or null for a new one. */
  tag: Tag | null;
  busy: boolean;
  /** The last write's error, if any; cleared by the owner when the dialog opens. */
  error: QueryError | null;
  onClose: () => void;
  /** Saves the trimmed name; answers whether it was saved. */
  onSave: (name: string) => Promise<boolean>;
}

export function TagNameDialog({ open, tag, busy, error, onClose, onSave }: TagNameDialogProps) {
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const selectName = useRef(false);
  const formId = useId();

  useEffect(() => {
    if (!open) return;
    setName(tag?.name ?? '');
    setProblem(null);
    setSubmitted(false);
    selectName.current = tag !== null;
  }, [open, tag]);
  // Renaming starts with the old name selected (once it is in the field), so typing replaces it.
  useEffect(() => {
    if (selectName.current && tag && name === tag.name) {
      selectName.current = false;
      input.current?.select();
    }
  }, [name, tag]);

  // The database's answer, once this dialog has sent something.
  const refused = submitted && error ? tagWriteError(error) : { field: null, form: null };
  const fieldError = problem ?? refused.field;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const found = tagNameProblem(name);
    if (!found && tag && name.trim() === tag.name) {
      onClose();
      return;
    }
    setProblem(found);
    if (found) {
      input.current?.focus();
      return;
    }
    setSubmitted(true);
    if (!(await onSave(name.trim()))) input.current?.focus();
  }

  return (
    <Dialog
      open={open}
      title={tag ? `Rename “${tag.name}”` : 'New tag'}
      onClose={onClose}
      busy={busy}
      size="sm"
      footer={
        <>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" loading={busy}>
            {tag ? 'Rename tag' : 'Create tag'}
          </Button>
        </>
      }
    >
      <form id={formId} className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          ref={input}
          label="Name"
          value={name}
          maxLength={MAX_TAG_LENGTH}
          required
          autoComplete="off"
          spellCheck={false}
          error={fieldError}
          hint={
            tag
              ? 'Subscribers, filters, segments and automations keep the tag; they show the new name at once.'
              : `Up to ${MAX_TAG_LENGTH} characters, no comma or semicolon; unique ignoring case.`
          }
          onChange={(e) => {
            setName(e.target.value);
            setProblem(null);
            setSubmitted(false);
          }}
        />
        {refused.form ? <StatusMessage tone="error">{refused.form}</StatusMessage> : null}
      </form>
    </Dialog>
  );
}
