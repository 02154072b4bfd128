// The body of /admin/subscribers/view/?id=: who the subscriber is, their details (edited in place by
// admins), lists and history, and the export and blocklist/enable (admins, SPEC §6) and delete
// (owner) actions.
import { ArrowLeft, Ban, CircleCheck, Download, Trash2, UserX } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useMemo, useState } from 'react';
import { formatMoment } from '../../../lib/admin/format';
import { exportFileName } from '../../../lib/admin/subscriber';
import {
  exportSubscriber,
  useDeleteSubscriber,
  useSetSubscriberStatus,
  useSubscriber,
} from '../../../lib/admin/use-subscriber';
import { useListOptions } from '../../../lib/admin/use-subscribers';
import { useSubscriberTags } from '../../../lib/admin/use-tags';
import { toQueryError } from '../../../lib/use-query';
import { useAdmin } from '../AdminContext';
import {
  Badge,
  Button,
  Card,
  ConfirmDialog,
  EmptyState,
  ErrorState,
  LoadingState,
  StatusMessage,
  statusTone,
} from '../../ui';
import { SubscriberTagsCard } from '../tags/SubscriberTagsCard';
import { HistoryCard } from './HistoryCard';
import { ResendConfirmation } from './ResendConfirmation';
import { SubscriberDetailsCard } from './SubscriberDetailsCard';
import { EmailText } from './EmailText';
import { SubscriptionsCard } from './SubscriptionsCard';
import styles from './Subscribers.module.css';

/** Offers `data` as a file download without a server: a Blob URL on a temporary link. */
function download(name: string, data: unknown) {
  const url = URL.createObjectURL(
    new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }),
  );
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function SubscriberDetailView({ id }: { id: string }) {
  const { can } = useAdmin();
  const router = useRouter();
  const subscriber = useSubscriber(id);
  const lists = useListOptions();
  // Read with the subscriber, and waited for: the lists add rows to the Lists card (admins see the
  // lists to add them to) and the tags fill the Tags card, so arriving later they pushed the cards
  // below down (CLS 0.019 at 1280 px). A failed read shows in its card.
  const tags = useSubscriberTags(id);
  const partsAnswered = [lists, tags].every((query) => query.data !== undefined || query.error);
  const setStatus = useSetSubscriberStatus();
  const remove = useDeleteSubscriber();
  const [confirming, setConfirming] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const listNames = useMemo(
    () => Object.fromEntries((lists.data ?? []).map((l) => [l.slug, l.name])),
    [lists.data],
  );

  const back = (
    <Link href="/admin/subscribers/" className={styles.back}>
      <ArrowLeft aria-hidden="true" width={18} height={18} />
      All subscribers
    </Link>
  );

  if (subscriber.error && subscriber.data === undefined) {
    return (
      <ErrorState
        title="This subscriber could not be loaded."
        message={subscriber.error.message}
        onRetry={() => void subscriber.mutate()}
      />
    );
  }
  if (subscriber.data === undefined || (subscriber.data && !partsAnswered)) {
    return <LoadingState label="Loading subscriber…" />;
  }
  const detail = subscriber.data;
  if (detail === null) {
    return (
      <EmptyState icon={<UserX />} title="Subscriber not found." action={back}>
        There is no subscriber with this id. They may have been deleted.
      </EmptyState>
    );
  }

  const runExport = async () => {
    setExporting(true);
    setExportError(null);
    try {
      download(exportFileName(detail.email), await exportSubscriber(detail));
    } catch (error) {
      setExportError(toQueryError(error).message);
    } finally {
      setExporting(false);
    }
  };

  const runDelete = async () => {
    if (await remove.run(detail.id)) {
      setConfirming(false);
      await router.push('/admin/subscribers/');
    }
  };

  const blocklisted = detail.status === 'blocklisted';
  const hasActions = can('import-export') || can('manage-subscribers') || can('delete-subscribers');

  return (
    <div className={styles.detail}>
      {back}
      <Card>
        <div className={styles.summary}>
          <div className={styles.identity}>
            <h2 className={styles.identityEmail}>
              <EmailText email={detail.email} />
            </h2>
            <div className={styles.meta}>
              <span>{detail.name || 'No name'}</span>
              <Badge tone={statusTone(detail.status)}>{detail.status}</Badge>
              <span>Added {formatMoment(detail.created_at)}</span>
            </div>
          </div>
          {/* No empty toolbar for a viewer: on a phone it would wrap and leave a gap in the card. */}
          {hasActions ? (
            <div className={styles.toolbar}>
              {can('import-export') ? (
                <Button icon={<Download />} loading={exporting} onClick={() => void runExport()}>
                  Export JSON
                </Button>
              ) : null}
              {can('manage-subscribers') ? (
                <Button
                  icon={blocklisted ? <CircleCheck /> : <Ban />}
                  loading={setStatus.pending}
                  onClick={() =>
                    void setStatus.run(detail.id, blocklisted ? 'enabled' : 'blocklisted')
                  }
                >
                  {blocklisted ? 'Enable' : 'Blocklist'}
                </Button>
              ) : null}
              {can('delete-subscribers') ? (
                <Button variant="danger" icon={<Trash2 />} onClick={() => setConfirming(true)}>
                  Delete
                </Button>
              ) : null}
            </div>
          ) : null}
        </div>
      </Card>
      {exportError ? (
        <StatusMessage tone="error">Export failed: {exportError}</StatusMessage>
      ) : null}
      {setStatus.error ? (
        <StatusMessage tone="error">{setStatus.error.message}</StatusMessage>
      ) : null}
      <ResendConfirmation detail={detail} />
      <div className={styles.columns}>
        {/* Keyed by the subscriber, not its version: a re-read after a save (or another member's
            change) keeps the "Saved" note and any edit in progress; Edit starts from the latest. */}
        <SubscriberDetailsCard key={detail.id} detail={detail} />
        <SubscriptionsCard subscriber={detail} lists={lists.data ?? []} />
      </div>
      <SubscriberTagsCard subscriberId={detail.id} />
      <HistoryCard subscriberId={detail.id} listNames={listNames} />
      <ConfirmDialog
        open={confirming}
        title={`Delete ${detail.email}?`}
        confirmLabel="Delete subscriber"
        busy={remove.pending}
        error={remove.error?.message ?? null}
        onConfirm={() => void runDelete()}
        onCancel={() => setConfirming(false)}
      >
        Their subscriptions and history are deleted too; only an anonymous record that a deletion
        happened remains. This cannot be undone.
      </ConfirmDialog>
    </div>
  );
}
