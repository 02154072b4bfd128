// The body of /admin/subscribers/segments/: every saved segment with a link to its editor and to
// its subscribers, and the loading, empty and error states. Admins and owners create and delete.
import { ArrowLeft, Filter, Plus, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { formatMoment } from '../../../lib/admin/format';
import { plainMessage, type Segment } from '../../../lib/admin/segments';
import { useSegments, useSegmentWrite } from '../../../lib/admin/use-segments';
import { useAdmin } from '../AdminContext';
import {
  Button,
  buttonClass,
  Card,
  ConfirmDialog,
  EmptyState,
  ErrorState,
  LoadingState,
  Table,
} from '../../ui';
import styles from './Segments.module.css';

export function NewSegmentLink() {
  const { can } = useAdmin();
  if (!can('manage-subscribers')) return null;
  return (
    <Link href="/admin/subscribers/segments/edit/" className={buttonClass('primary')}>
      <Plus aria-hidden="true" width={18} height={18} />
      New segment
    </Link>
  );
}

export function SegmentsView() {
  const { can } = useAdmin();
  const segments = useSegments();
  const write = useSegmentWrite();
  const [deleting, setDeleting] = useState<Segment | null>(null);
  const editable = can('manage-subscribers');

  const back = (
    <Link href="/admin/subscribers/" className={styles.back}>
      <ArrowLeft aria-hidden="true" width={18} height={18} />
      All subscribers
    </Link>
  );

  let body;
  if (segments.error && !segments.data) {
    body = (
      <ErrorState
        title="Segments could not be loaded."
        message={segments.error.message}
        onRetry={() => void segments.mutate()}
        retrying={segments.isValidating}
      />
    );
  } else if (!segments.data) {
    body = <LoadingState label="Loading segments…" />;
  } else if (segments.data.length === 0) {
    body = (
      <EmptyState icon={<Filter />} title="No segments yet." action={<NewSegmentLink />}>
        A segment is a saved set of conditions — a tag, a list, a date, engagement — that campaigns
        can target or leave out, and that always holds whoever fits it now.
      </EmptyState>
    );
  } else {
    body = (
      <Table caption="Segments">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Conditions</th>
            <th scope="col">Changed</th>
            <th scope="col">
              <span className={styles.visuallyHidden}>Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {segments.data.map((s) => (
            <tr key={s.id}>
              <th scope="row">
                <Link href={`/admin/subscribers/segments/edit/?id=${s.id}`}>{s.name}</Link>
              </th>
              <td>{s.rules.rules.length}</td>
              <td>{formatMoment(s.updated_at)}</td>
              <td className={styles.rowActions}>
                <Link
                  href={`/admin/subscribers/?segment=${s.id}`}
                  className={buttonClass('secondary', 'sm')}
                >
                  Subscribers
                </Link>
                {editable ? (
                  <Button
                    size="sm"
                    variant="danger"
                    icon={<Trash2 />}
                    aria-label={`Delete ${s.name}`}
                    onClick={() => setDeleting(s)}
                  >
                    Delete
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    );
  }

  return (
    <div className={styles.stack}>
      {back}
      <Card flush>{body}</Card>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the segment ${deleting?.name ?? ''}?`}
        confirmLabel="Delete segment"
        danger
        busy={write.pending}
        error={write.error ? plainMessage(write.error.message) : null}
        onConfirm={() => {
          if (deleting) void write.destroy(deleting.id).then((ok) => ok && setDeleting(null));
        }}
        onCancel={() => setDeleting(null)}
      >
        No subscriber is changed; campaigns already sent keep their recipients.
      </ConfirmDialog>
    </div>
  );
}
