// /admin/lists/: every list with its subscription counts; admins create, edit and delete lists.
import { ListPlus, Pencil, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { ListCountCells, ListCountHeads } from '../../../components/admin/ListCountColumns';
import AdminLayout, { useAdmin } from '../../../components/admin/AdminLayout';
import { ListEditor } from '../../../components/admin/ListEditor';
import styles from '../../../components/admin/ListsPage.module.css';
import {
  Badge,
  Button,
  Card,
  ConfirmDialog,
  EmptyState,
  ErrorState,
  LoadingState,
  StatusMessage,
  Table,
  tableStyles,
} from '../../../components/ui';
import { formatCount } from '../../../lib/admin/format';
import type { ListRow } from '../../../lib/admin/list-form';
import type { ListWithCounts } from '../../../lib/admin/lists';
import { useLists, useListWrites } from '../../../lib/admin/use-lists';
import { useConfirmedDelete } from '../../../lib/admin/use-confirmed-delete';

type Editing = { list: ListRow | null } | null;

function ListsTable({
  lists,
  canWrite,
  onEdit,
  onDelete,
}: {
  lists: ListWithCounts[];
  canWrite: boolean;
  onEdit: (list: ListWithCounts) => void;
  onDelete: (list: ListWithCounts) => void;
}) {
  return (
    <Table caption="Lists" captionHidden stack>
      <thead>
        <tr>
          <th scope="col">List</th>
          <th scope="col">Settings</th>
          <ListCountHeads />
          {canWrite ? (
            <th scope="col" className={tableStyles.actions}>
              <span className="visually-hidden">Actions</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {lists.map((list) => (
          <tr key={list.id}>
            <th scope="row" className={`${styles.nameCell} ${tableStyles.full}`}>
              <span className={styles.name}>{list.name}</span>
              <code className={styles.slug}>{list.slug}</code>
              {list.description ? (
                <span className={styles.description}>{list.description}</span>
              ) : null}
            </th>
            <td className={tableStyles.full}>
              <span className={styles.badges}>
                <Badge tone={list.visibility === 'public' ? 'success' : 'neutral'}>
                  {list.visibility === 'public' ? 'Public' : 'Private'}
                </Badge>
                <Badge>{list.optin === 'double' ? 'Double opt-in' : 'Single opt-in'}</Badge>
                {list.waitlist ? <Badge tone="brand">Waitlist</Badge> : null}
                {list.waitlist ? (
                  <Link href={`/admin/waitlists/?list=${encodeURIComponent(list.slug)}`}>
                    Open the line
                  </Link>
                ) : null}
              </span>
            </td>
            <ListCountCells list={list} />
            {canWrite ? (
              <td className={`${tableStyles.actions} ${tableStyles.full}`}>
                <span className={styles.rowActions}>
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={<Pencil />}
                    onClick={() => onEdit(list)}
                    aria-label={`Edit ${list.name}`}
                  >
                    Edit
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={<Trash2 />}
                    onClick={() => onDelete(list)}
                    aria-label={`Delete ${list.name}`}
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

function ListsContent() {
  const { can } = useAdmin();
  const canWrite = can('manage-lists');
  const { data, error, isValidating, mutate } = useLists();
  const writes = useListWrites();
  const [editing, setEditing] = useState<Editing>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const deletion = useConfirmedDelete(
    (list: ListWithCounts) => writes.remove(list.id),
    (deleted: ListWithCounts) => setNotice(`List “${deleted.name}” deleted.`),
  );
  const deleting = deletion.target;

  const newButton = canWrite ? (
    <Button
      variant="primary"
      icon={<ListPlus />}
      onClick={() => {
        setNotice(null);
        setEditing({ list: null });
      }}
    >
      New list
    </Button>
  ) : null;

  let body;
  if (error) {
    body = (
      <ErrorState
        title="The lists could not be loaded."
        message={error.message}
        onRetry={() => void mutate()}
        retrying={isValidating}
      />
    );
  } else if (!data) {
    body = <LoadingState label="Loading lists…" />;
  } else if (data.length === 0) {
    body = (
      <EmptyState title="No lists yet." action={newButton}>
        {canWrite
          ? 'Create a list so people can subscribe to it.'
          : 'An admin can create the first list.'}
      </EmptyState>
    );
  } else {
    body = (
      <ListsTable
        lists={data}
        canWrite={canWrite}
        onEdit={(list) => {
          setNotice(null);
          setEditing({ list });
        }}
        onDelete={(list) => {
          setNotice(null);
          deletion.ask(list);
        }}
      />
    );
  }

  return (
    <div className={styles.page}>
      {notice ? <StatusMessage tone="success">{notice}</StatusMessage> : null}
      {!canWrite ? (
        <StatusMessage tone="info">
          You can view lists. Admins and owners can create and change them.
        </StatusMessage>
      ) : null}
      <Card
        title={data ? `All lists (${data.length})` : 'All lists'}
        // Also while loading: the button sets the heading row's height, and appearing with the
        // lists it pushed the table down (CLS 0.011 at 390 px). The empty state has its own.
        actions={data?.length === 0 ? null : newButton}
        flush
      >
        {body}
      </Card>
      {canWrite ? (
        <>
          <ListEditor
            open={editing !== null}
            list={editing?.list ?? null}
            onClose={() => setEditing(null)}
            onSave={(form) =>
              editing?.list ? writes.update(editing.list.id, form) : writes.create(form)
            }
            onSaved={(list) => {
              setNotice(
                editing?.list ? `List “${list.name}” saved.` : `List “${list.name}” created.`,
              );
              setEditing(null);
            }}
          />
          <ConfirmDialog
            open={deleting !== null}
            title={deleting ? `Delete ${deleting.name}?` : 'Delete list?'}
            confirmLabel="Delete list"
            busy={deletion.busy}
            error={deletion.error}
            onCancel={deletion.cancel}
            onConfirm={() => void deletion.confirm()}
          >
            {deleting ? (
              <p>
                The list <strong>{deleting.slug}</strong> and its{' '}
                {formatCount(
                  deleting.counts.confirmed +
                    deleting.counts.pending +
                    deleting.counts.unsubscribed,
                )}{' '}
                subscriptions are removed for good. The subscribers themselves stay.
              </p>
            ) : null}
          </ConfirmDialog>
        </>
      ) : null}
    </div>
  );
}

export default function ListsPage() {
  return (
    <AdminLayout title="Lists">
      <ListsContent />
    </AdminLayout>
  );
}
