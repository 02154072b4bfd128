// "Resend confirmation" for the selected rows or every match of the filter (admins, issue 23): the
// dialog narrows them to those pending for at least N days (e.g. 2), counts exactly whom it will
// mail, starts the send (resend-confirmation, at the send rate) and shows its progress.
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { pendingRules } from '../../../lib/admin/subscriber-resend';
import type { RuleGroup } from '../../../lib/admin/subscriber-rules';
import { useMatchCount } from '../../../lib/admin/use-subscriber-bulk';
import { useResendConfirmation } from '../../../lib/admin/use-subscriber-resend';
import { useAdmin } from '../AdminContext';
import { Button, Dialog, TextField } from '../../ui';
import { SendProgress } from './ResendConfirmation';
import styles from './Subscribers.module.css';

const MAX_DAYS = 365;

export function ResendConfirmations({ target }: { target: RuleGroup }) {
  const { can } = useAdmin();
  const [open, setOpen] = useState(false);
  const [days, setDays] = useState('0');
  const resend = useResendConfirmation();
  const parsed = /^\d{1,3}$/.test(days.trim()) ? Number(days) : null;
  const valid = parsed !== null && parsed <= MAX_DAYS;
  const rules = valid ? pendingRules(target, parsed) : null;
  const count = useMatchCount(open && !resend.send ? rules : null);
  if (!can('manage-subscribers')) return null;

  const send = resend.send;
  const running = resend.starting || (send !== null && send.status !== 'done');
  const total = count.data ?? null;
  const close = () => {
    setOpen(false);
    resend.reset();
  };

  let title = 'Resend the confirmation email';
  if (!send && total !== null) {
    title =
      total === 0
        ? 'Nobody to send to'
        : `Resend the confirmation email to ${total.toLocaleString('en')} ${total === 1 ? 'subscriber' : 'subscribers'}?`;
  }

  return (
    <>
      <Button size="sm" icon={<MailCheck />} onClick={() => setOpen(true)}>
        Resend confirmation
      </Button>
      <Dialog
        open={open}
        title={title}
        onClose={close}
        busy={resend.starting}
        size="sm"
        footer={
          send ? (
            // Closing leaves the send going: it runs on the server, at the send rate.
            <Button onClick={close}>{running ? 'Close (sending goes on)' : 'Close'}</Button>
          ) : (
            <>
              <Button onClick={close}>Cancel</Button>
              <Button
                variant="primary"
                loading={resend.starting || (total === null && !count.error && valid)}
                disabled={!valid || total === 0}
                onClick={() => rules && void resend.start({ rules })}
              >
                Send
              </Button>
            </>
          )
        }
      >
        <div className={styles.resend}>
          {!send ? (
            <>
              <p>
                Only subscribers with a pending subscription get it, at the send rate; an address
                that had 5 confirmation emails in the last 10 minutes is left out.
              </p>
              <TextField
                label="Pending for at least (days)"
                hint="0 sends to everyone still pending."
                inputMode="numeric"
                value={days}
                error={valid ? null : `A whole number from 0 to ${MAX_DAYS}.`}
                onChange={(e) => setDays(e.target.value)}
              />
            </>
          ) : (
            <SendProgress send={send} />
          )}
          {count.error ? (
            <p role="alert">The subscribers could not be counted: {count.error.message}</p>
          ) : null}
          {resend.error ? <p role="alert">{resend.error.message}</p> : null}
        </div>
      </Dialog>
    </>
  );
}
