// Deleting a tag, confirmed: the dialog reads what uses the tag first. Named by a segment or an
// automation (any status), the tag cannot be deleted (the database refuses too, 20261201400100):
// the dialog lists them with links and says why. Otherwise it says how many subscribers lose the tag
// and what their histories keep (deleting writes no events; 20261201400000).
import Link from 'next/link';
import { useEffect } from 'react';
import { formatCount } from '../../../lib/admin/format';
import {
  describeTagHolders,
  describeTagUses,
  tagInUse,
  type TagUsage,
} from '../../../lib/admin/tag-usage';
import { plainMessage } from '../../../lib/admin/segments';
import type { Tag } from '../../../lib/admin/tags';
import { useTagUsage } from '../../../lib/admin/use-tags';
import type { QueryError } from '../../../lib/use-query';
import { Badge, Button, Dialog, ErrorState, LoadingState, statusTone } from '../../ui';
import styles from './TagsView.module.css';

export interface DeleteTagDialogProps {
  /** The tag asked about, or null when the dialog is closed. */
  tag: Tag | null;
  busy: boolean;
  error: QueryError | null;
  onCancel: () => void;
  onConfirm: (tag: Tag) => void;
}

function InUse({ usage }: { usage: TagUsage }) {
  return (
    <>
      <p>
        {describeTagHolders(usage)}{' '}
        {usage.segments.length + usage.automations.length === 1 ? 'uses' : 'use'} this tag, so it
        cannot be deleted: a condition on a tag that no longer exists would match nobody (or, for
        “does not have”, everybody), and an automation would stop starting or doing that step.
        Change or delete them first, or rename the tag instead.
      </p>
      {usage.segments.length > 0 ? (
        <div>
          <h3 className={styles.usageHeading}>Segments</h3>
          <ul className={styles.usage}>
            {usage.segments.map((s) => (
              <li key={s.id}>
                <Link href={`/admin/subscribers/segments/edit/?id=${s.id}`}>{s.name}</Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {usage.automations.length > 0 ? (
        <div>
          <h3 className={styles.usageHeading}>Automations</h3>
          <ul className={styles.usage}>
            {usage.automations.map((a) => (
              <li key={a.id}>
                <Link href={`/admin/automations/edit/?id=${a.id}`}>{a.name}</Link>{' '}
                <Badge tone={a.status === 'active' ? 'success' : statusTone(a.status)}>
                  {a.status === 'active' ? 'Running' : a.status === 'paused' ? 'Paused' : 'Draft'}
                </Badge>
                <span className={styles.usageWhat}>{describeTagUses(a.uses)}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}

export function DeleteTagDialog({ tag, busy, error, onCancel, onConfirm }: DeleteTagDialogProps) {
  const usage = useTagUsage(tag?.id ?? null);
  const data = usage.data && usage.data.id === tag?.id ? usage.data : null;
  const blocked = data ? tagInUse(data) : false;
  const { mutate } = usage;
  // Refused as in use (something started using it since the dialog read it): read it again.
  useEffect(() => {
    if (error?.status === 409) void mutate();
  }, [error, mutate]);

  let body;
  if (usage.error && !data) {
    body = (
      <ErrorState
        title="Could not check what uses this tag."
        message={usage.error.message}
        onRetry={() => void usage.mutate()}
        retrying={usage.isValidating}
      />
    );
  } else if (!data) {
    body = <LoadingState label="Checking what uses this tag…" />;
  } else if (blocked) {
    body = <InUse usage={data} />;
  } else {
    body = (
      <>
        <p>
          {data.subscribers === 0
            ? 'No subscriber has this tag, and no segment or automation uses it.'
            : `${formatCount(data.subscribers)} ${data.subscribers === 1 ? 'subscriber loses' : 'subscribers lose'} this tag. No segment or automation uses it.`}{' '}
          This cannot be undone.
        </p>
        {data.subscribers > 0 ? (
          <p>
            Their histories keep when it was added, marked “since deleted”; the deletion itself is
            not written into each one. To record the removal there,{' '}
            <Link href={`/admin/subscribers/?tag=${data.id}`}>
              remove the tag from them in bulk
            </Link>{' '}
            first.
          </p>
        ) : null}
      </>
    );
  }

  return (
    <Dialog
      open={tag !== null}
      title={blocked ? `“${tag?.name ?? ''}” is in use` : `Delete the tag “${tag?.name ?? ''}”?`}
      onClose={onCancel}
      busy={busy}
      size="sm"
      footer={
        blocked ? (
          <Button onClick={onCancel}>Close</Button>
        ) : (
          <>
            <Button onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
            <Button
              variant="danger"
              loading={busy}
              disabled={!data}
              onClick={() => {
                if (tag && data) onConfirm(tag);
              }}
            >
              Delete tag
            </Button>
          </>
        )
      }
    >
      <div className={styles.dialogText}>{body}</div>
      {error && !blocked ? (
        <p className={styles.dialogError} role="alert">
          {plainMessage(error.message)}
        </p>
      ) : null}
    </Dialog>
  );
}
