// Save as template: names a new template made from the campaign's subject, preheader and body
// (not its lists or sender), with an optional description; New campaign offers it from then on.
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { checkTemplateName, type TemplateContent } from '../../../../lib/admin/templates';
import { useTemplateWrites } from '../../../../lib/admin/use-campaign-templates';
import { Button, Dialog, StatusMessage, TextField } from '../../../ui';
import styles from './Templates.module.css';

export function SaveTemplateDialog({
  open,
  content,
  onClose,
}: {
  open: boolean;
  content: TemplateContent;
  onClose: () => void;
}) {
  const { create } = useTemplateWrites();
  const [name, setName] = useState(content.name);
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);

  // Each opening starts from the campaign as it is now.
  useEffect(() => {
    if (!open) return;
    setName(content.name);
    setDescription('');
    setError(null);
    setSaved(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  async function save() {
    const nameError = checkTemplateName(name);
    if (nameError) {
      setError(nameError);
      return;
    }
    setBusy(true);
    const result = await create({ ...content, name, description });
    setBusy(false);
    if (result.ok) setSaved(result.template.name);
    else setError(result.message);
  }

  return (
    <Dialog
      open={open}
      title="Save as template"
      onClose={onClose}
      busy={busy}
      size="sm"
      footer={
        saved ? (
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        ) : (
          <>
            <Button onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button variant="primary" loading={busy} onClick={() => void save()}>
              Save template
            </Button>
          </>
        )
      }
    >
      {saved ? (
        <StatusMessage tone="success">
          Template “{saved}” saved. New campaign offers it;{' '}
          <Link href="/admin/campaigns/templates/">manage templates</Link>.
        </StatusMessage>
      ) : (
        <form
          className={styles.form}
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <p className={styles.note}>
            The subject, preheader and body are saved; lists and sender are chosen per campaign.
          </p>
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
          <TextField
            label="Description"
            optional
            hint="One line on when to use it."
            value={description}
            maxLength={300}
            onChange={(e) => setDescription(e.target.value)}
            autoComplete="off"
          />
        </form>
      )}
    </Dialog>
  );
}
