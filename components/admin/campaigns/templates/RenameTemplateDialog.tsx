// Rename a template: one field, its error beside it; the name is what New campaign lists.
import { useEffect, useState } from 'react';
import { checkTemplateName, type TemplateRow } from '../../../../lib/admin/templates';
import { useTemplateWrites } from '../../../../lib/admin/use-campaign-templates';
import { Button, Dialog, TextField } from '../../../ui';
import styles from './Templates.module.css';

export function RenameTemplateDialog({
  template,
  onClose,
  onRenamed,
}: {
  template: TemplateRow | null;
  onClose: () => void;
  onRenamed: (name: string) => void;
}) {
  const { rename } = useTemplateWrites();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!template) return;
    setName(template.name);
    setError(null);
  }, [template]);

  async function save() {
    if (!template) return;
    const nameError = checkTemplateName(name);
    if (nameError) {
      setError(nameError);
      return;
    }
    setBusy(true);
    const result = await rename(template.id, name);
    setBusy(false);
    if (result.ok) onRenamed(result.template.name);
    else setError(result.message);
  }

  return (
    <Dialog
      open={template !== null}
      title="Rename template"
      onClose={onClose}
      busy={busy}
      size="sm"
      footer={
        <>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button variant="primary" loading={busy} onClick={() => void save()}>
            Rename
          </Button>
        </>
      }
    >
      <form
        className={styles.form}
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <TextField
          label="Template name"
          value={name}
          maxLength={100}
          onChange={(e) => {
            setName(e.target.value);
            setError(null);
          }}
          error={error}
          autoComplete="off"
          required
        />
      </form>
    </Dialog>
  );
}
