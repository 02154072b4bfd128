// New campaign's first question: start blank or from a template. Each choice is a link to the
// editor (`?template=`), which creates nothing until the first save; "Manage templates" leads to
// renaming and deleting them.
import { FilePlus2, LayoutTemplate } from 'lucide-react';
import Link from 'next/link';
import { useTemplates } from '../../../../lib/admin/use-campaign-templates';
import { Button, Dialog, ErrorState, LoadingState } from '../../../ui';
import styles from './Templates.module.css';

export function TemplatePicker({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { data, error, isValidating, mutate } = useTemplates();
  let templates;
  if (error && !data) {
    templates = (
      <ErrorState
        title="The templates could not be loaded."
        message={error.message}
        onRetry={() => void mutate()}
        retrying={isValidating}
      />
    );
  } else if (!data) {
    templates = <LoadingState label="Loading templates…" />;
  } else {
    templates = data.map((t) => (
      <li key={t.id}>
        <Link
          className={styles.choice}
          href={`/admin/campaigns/edit/?template=${encodeURIComponent(t.id)}`}
        >
          <span className={styles.choiceName}>
            <LayoutTemplate aria-hidden="true" />
            {t.name}
          </span>
          <span className={styles.choiceText}>{t.description || t.subject || 'No subject'}</span>
        </Link>
      </li>
    ));
  }
  return (
    <Dialog
      open={open}
      title="New campaign"
      onClose={onClose}
      footer={
        <div className={styles.pickerFooter}>
          <Link href="/admin/campaigns/templates/">Manage templates</Link>
          <Button onClick={onClose}>Close</Button>
        </div>
      }
    >
      <p className={styles.note}>
        Start from a blank page or a template. Nothing is saved until you save the draft.
      </p>
      <ul className={styles.choices} aria-label="Starting points">
        <li>
          <Link className={styles.choice} href="/admin/campaigns/edit/" data-autofocus>
            <span className={styles.choiceName}>
              <FilePlus2 aria-hidden="true" />
              Blank campaign
            </span>
            <span className={styles.choiceText}>An empty Markdown body and no lists.</span>
          </Link>
        </li>
        {Array.isArray(templates) ? templates : <li>{templates}</li>}
      </ul>
    </Dialog>
  );
}
