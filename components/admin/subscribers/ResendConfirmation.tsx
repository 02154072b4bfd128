// "Resend confirmation" on a subscriber's page (admins, issue 23): shown while they have a pending
// subscription; mails the confirmation email again (resend-confirmation) and says how it went.
// SendProgress, the line with the bar, is shared with the bulk dialog and the import's progress
// (ImportSendProgress).
import { MailCheck } from 'lucide-react';
import { sendView, type ConfirmationSend } from '../../../lib/admin/subscriber-resend';
import type { SubscriberDetail } from '../../../lib/admin/subscriber';
import {
  useImportConfirmationSend,
  useResendConfirmation,
} from '../../../lib/admin/use-subscriber-resend';
import { useAdmin } from '../AdminContext';
import { Button, ProgressBar, StatusMessage } from '../../ui';
import styles from './Subscribers.module.css';

/** A send's state in words, with a bar while it runs. */
export function SendProgress({ send }: { send: ConfirmationSend }) {
  const view = sendView(send);
  if (view.finished) return <StatusMessage tone={view.tone}>{view.text}</StatusMessage>;
  return (
    <div className={styles.bulkProgress} role="status">
      <span>{view.text}</span>
      <ProgressBar
        aria-label={send.kind === 'welcome' ? 'Welcome emails sent' : 'Confirmation emails sent'}
        aria-valuemax={100}
        aria-valuenow={view.percent}
        aria-valuetext={view.text}
        percent={view.percent}
        size="sm"
      />
    </div>
  );
}

/** The confirmation emails an import's option queued, under the import's own progress. */
export function ImportSendProgress({ importId }: { importId: string }) {
  const send = useImportConfirmationSend(importId);
  if (send.error) {
    return (
      <StatusMessage tone="error">
        The confirmation emails' progress could not be read: {send.error.message}
      </StatusMessage>
    );
  }
  return send.data ? <SendProgress send={send.data} /> : null;
}

export function ResendConfirmation({ detail }: { detail: SubscriberDetail }) {
  const { can } = useAdmin();
  const resend = useResendConfirmation();
  const pending = detail.subscriptions.some((s) => s.status === 'pending');
  if (!can('manage-subscribers') || detail.status !== 'enabled') return null;
  if (!pending && !resend.send) return null;
  const running = resend.starting || (resend.send !== null && resend.send.status !== 'done');
  return (
    <div className={styles.resend}>
      {pending ? (
        <Button
          icon={<MailCheck />}
          loading={running}
          onClick={() => void resend.start({ subscriberIds: [detail.id] })}
        >
          Resend confirmation
        </Button>
      ) : null}
      {resend.error ? (
        <StatusMessage tone="error">{resend.error.message}</StatusMessage>
      ) : resend.send ? (
        <SendProgress send={resend.send} />
      ) : null}
    </div>
  );
}
