// The bar shown while rows are selected: unsubscribe from all lists and blocklist (admins), delete
// (owner, after a confirmation). Each is one request; the result is announced under the bar.
import { Ban, MailX, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { BulkAction } from '../../../lib/admin/subscribers';
import { useBulkAction } from '../../../lib/admin/use-subscribers';
import { useAdmin } from '../AdminContext';
import { Button, ConfirmDialog, StatusMessage } from '../../ui';
import styles from './Subscribers.module.css';

const DONE: Record<BulkAction, (n: number) => string> = {
  unsubscribe: (n) => `${n} ${n === 1 ? 'subscriber' : 'subscribers'} unsubscribed from all lists.`,
  blocklist: (n) => `${n} ${n === 1 ? 'subscriber' : 'subscribers'} blocklisted.`,
  delete: (n) => `${n} ${n === 1 ? 'subscriber' : 'subscribers'} deleted.`,
};

function plural(n: number): string {
  return `${n} ${n === 1 ? 'subscriber' : 'subscribers'}`;
}

export interface BulkResult {
  tone: 'success' | 'error';
  text: string;
}

export function BulkActions({
  ids,
  onDone,
}: {
  ids: string[];
  /** Called after every attempt with what to announce; the page clears the selection on success. */
  onDone: (result: BulkResult) => void;
}) {
  const { can } = useAdmin();
  const bulk = useBulkAction();
  const [running, setRunning] = useState<BulkAction | null>(null);
  const [confirming, setConfirming] = useState(false);

  const [deleteError, setDeleteError] = useState<string | null>(null);

  const run = async (action: BulkAction) => {
    setRunning(action);
    setDeleteError(null);
    const outcome = await bulk.run(action, ids);
    setRunning(null);
    if (!outcome.ok) {
      // A refused delete stays in its dialog, so the owner sees why and can retry or cancel.
      if (action === 'delete') setDeleteError(outcome.error.message);
      else onDone({ tone: 'error', text: `Nothing was changed: ${outcome.error.message}` });
      return;
    }
    setConfirming(false);
    onDone({
      tone: 'success',
      text:
        outcome.changed === 0
          ? 'Nothing to change: the selected subscribers already were that way.'
          : DONE[action](outcome.changed),
    });
  };

  return (
    <div className={styles.bulk} role="group" aria-label="Bulk actions">
      <span className={styles.bulkCount}>{plural(ids.length)} selected</span>
      {can('manage-subscribers') ? (
        <>
          <Button
            size="sm"
            icon={<MailX />}
            loading={running === 'unsubscribe'}
            disabled={running !== null}
            onClick={() => void run('unsubscribe')}
          >
            Unsubscribe from all lists
          </Button>
          <Button
            size="sm"
            icon={<Ban />}
            loading={running === 'blocklist'}
            disabled={running !== null}
            onClick={() => void run('blocklist')}
          >
            Blocklist
          </Button>
        </>
      ) : null}
      {can('delete-subscribers') ? (
        <Button
          size="sm"
          variant="danger"
          icon={<Trash2 />}
          disabled={running !== null}
          onClick={() => setConfirming(true)}
        >
          Delete
        </Button>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={`Delete ${plural(ids.length)}?`}
        confirmLabel="Delete"
        busy={running === 'delete'}
        error={deleteError}
        onConfirm={() => void run('delete')}
        onCancel={() => {
          setConfirming(false);
          setDeleteError(null);
        }}
      >
        Their subscriptions and history are deleted too. This cannot be undone.
      </ConfirmDialog>
    </div>
  );
}

export function BulkResultMessage({ result }: { result: BulkResult | null }) {
  if (!result) return null;
  return <StatusMessage tone={result.tone}>{result.text}</StatusMessage>;
}
