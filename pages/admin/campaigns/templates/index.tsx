// /admin/campaigns/templates/: the starting points New campaign offers. Every member reads them;
// editors and up start a campaign from one, rename and delete them (a template is saved from the
// campaign editor's "Save as template").
import { ArrowLeft, LayoutTemplate, Pencil, SquarePen, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import AdminLayout, { useAdmin } from '../../../../components/admin/AdminLayout';
import { RenameTemplateDialog } from '../../../../components/admin/campaigns/templates/RenameTemplateDialog';
import styles from '../../../../components/admin/campaigns/templates/Templates.module.css';
import {
  Button,
  buttonClass,
  Card,
  ConfirmDialog,
  EmptyState,
  ErrorState,
  LoadingState,
  StatusMessage,
  Table,
  tableStyles,
} from '../../../../components/ui';
import { formatMoment } from '../../../../lib/admin/format';
import type { TemplateRow } from '../../../../lib/admin/templates';
import { useTemplates, useTemplateWrites } from '../../../../lib/admin/use-campaign-templates';
import { useConfirmedDelete } from '../../../../lib/admin/use-confirmed-delete';

function TemplatesContent() {
  const { can } = useAdmin();
  const canWrite = can('write-campaigns');
  const { data, error, isValidating, mutate } = useTemplates();
  const writes = useTemplateWrites();
  const [notice, setNotice] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<TemplateRow | null>(null);
  const deletion = useConfirmedDelete(
    (t: TemplateRow) => writes.remove(t.id),
    (t: TemplateRow) => setNotice(`Template “${t.name}” deleted.`),
  );

  let body;
  if (error && !data) {
    body = (
      <ErrorState
        title="The templates could not be loaded."
        message={error.message}
        onRetry={() => void mutate()}
        retrying={isValidating}
      />
    );
  } else if (!data) {
    body = <LoadingState label="Loading templates…" />;
  } else if (data.length === 0) {
    body = (
      <EmptyState title="No templates yet." icon={<LayoutTemplate />}>
        Open a campaign and choose “Save as template” to start the next one from it.
      </EmptyState>
    );
  } else {
    body = (
      <Table caption="Campaign templates, by name" captionHidden stack>
        <thead>
          <tr>
            <th scope="col">Template</th>
            <th scope="col">Subject</th>
            <th scope="col">Updated</th>
            {canWrite ? (
              <th scope="col" className={tableStyles.actions}>
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {data.map((t) => (
            <tr key={t.id} data-template-id={t.id}>
              <th scope="row" className={tableStyles.full}>
                <span className={styles.name}>{t.name}</span>
                {t.description ? <span className={styles.muted}>{t.description}</span> : null}
              </th>
              <td data-label="Subject">
                <span className={styles.muted}>{t.subject || '—'}</span>
              </td>
              <td data-label="Updated">
                <time dateTime={t.updated_at}>{formatMoment(t.updated_at)}</time>
              </td>
              {canWrite ? (
                <td className={`${tableStyles.actions} ${tableStyles.full}`}>
                  <span className={styles.rowActions}>
                    <Link
                      className={buttonClass('secondary', 'sm')}
                      href={`/admin/campaigns/edit/?template=${encodeURIComponent(t.id)}`}
                      aria-label={`New campaign from ${t.name}`}
                    >
                      <SquarePen aria-hidden="true" />
                      Use
                    </Link>
                    <Button
                      size="sm"
                      variant="ghost"
                      icon={<Pencil />}
                      aria-label={`Rename ${t.name}`}
                      onClick={() => {
                        setNotice(null);
                        setRenaming(t);
                      }}
                    >
                      Rename
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      icon={<Trash2 />}
                      aria-label={`Delete ${t.name}`}
                      onClick={() => {
                        setNotice(null);
                        deletion.ask(t);
                      }}
                    >
                      Delete
                    </Button>
                  </span>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </Table>
    );
  }

  return (
    <div className={styles.page}>
      {notice ? <StatusMessage tone="success">{notice}</StatusMessage> : null}
      <div className={styles.toolbar}>
        <Link className={buttonClass('secondary')} href="/admin/campaigns/">
          <ArrowLeft aria-hidden="true" />
          All campaigns
        </Link>
      </div>
      {!canWrite ? (
        <StatusMessage tone="info">
          You can read the templates. Editors, admins and owners add, rename and delete them.
        </StatusMessage>
      ) : null}
      <Card title="Templates" flush>
        {body}
      </Card>
      <RenameTemplateDialog
        template={renaming}
        onClose={() => setRenaming(null)}
        onRenamed={(name) => {
          setRenaming(null);
          setNotice(`Template renamed to “${name}”.`);
        }}
      />
      <ConfirmDialog
        open={deletion.target !== null}
        title={deletion.target ? `Delete ${deletion.target.name}?` : 'Delete template?'}
        confirmLabel="Delete template"
        cancelLabel="Keep it"
        busy={deletion.busy}
        error={deletion.error}
        onCancel={deletion.cancel}
        onConfirm={() => void deletion.confirm()}
      >
        <p>Campaigns started from it keep their content; only the starting point goes.</p>
      </ConfirmDialog>
    </div>
  );
}

export default function TemplatesPage() {
  return (
    <AdminLayout title="Campaign templates">
      <TemplatesContent />
    </AdminLayout>
  );
}
