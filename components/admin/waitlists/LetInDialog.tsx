// The Let in dialog: how many from the top (or the rows chosen), which list they move to, whether
// an access email to exactly them is drafted and whether the target list's welcome is sent, and
// what happens to them, stated before anything moves.
import { DoorOpen } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { ListWithCounts } from '../../../lib/admin/lists';
import { LET_IN_MAX, type LetInEmails, type LetInWho } from '../../../lib/admin/use-waitlist-admin';
import { formatCount } from '../../../lib/admin/format';
import { Button, Checkbox, Dialog, SelectField, StatusMessage, TextField } from '../../ui';
import styles from '../ListEditor.module.css';

export function LetInDialog({
  open,
  waitlist,
  targets,
  chosen,
  inLine,
  busy,
  onLetIn,
  onClose,
}: {
  open: boolean;
  waitlist: ListWithCounts;
  targets: ListWithCounts[];
  /** Rows ticked in the table; when there are some, they are who is let in. */
  chosen: string[];
  inLine: number;
  busy: boolean;
  onLetIn: (targetId: string, who: LetInWho, emails: LetInEmails) => Promise<string | null>;
  onClose: () => void;
}) {
  const [top, setTop] = useState('10');
  const [target, setTarget] = useState('');
  const [accessEmail, setAccessEmail] = useState(true);
  const [welcome, setWelcome] = useState(false);
  const [error, setError] = useState<{ field: 'top' | 'target' | null; message: string } | null>(
    null,
  );
  const targetId = target || targets[0]?.id || '';
  const targetName = targets.find((t) => t.id === targetId)?.name ?? 'the list you choose';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!targetId)
      return setError({ field: 'target', message: 'Create a list to let people into first.' });
    let who: LetInWho;
    if (chosen.length > 0) {
      who = { subscribers: chosen };
    } else {
      const n = Number(top);
      if (!Number.isInteger(n) || n < 1 || n > LET_IN_MAX) {
        return setError({
          field: 'top',
          message: `Enter a number from 1 to ${formatCount(LET_IN_MAX)}.`,
        });
      }
      who = { top: n };
    }
    const failure = await onLetIn(targetId, who, { accessEmail, welcome });
    if (failure) setError({ field: null, message: failure });
  };

  return (
    <Dialog open={open} title={`Let people in from ${waitlist.name}`} onClose={onClose} busy={busy}>
      <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
        {chosen.length > 0 ? (
          <p>
            {chosen.length === 1 ? (
              'The person you selected is let in.'
            ) : (
              <>
                The <strong>{formatCount(chosen.length)}</strong> people you selected are let in.
              </>
            )}
          </p>
        ) : (
          <TextField
            label="How many from the top of the line"
            type="number"
            inputMode="numeric"
            min={1}
            max={Math.min(LET_IN_MAX, Math.max(inLine, 1))}
            value={top}
            hint={`${formatCount(inLine)} in line; at most ${formatCount(LET_IN_MAX)} at a time.`}
            error={error?.field === 'top' ? error.message : null}
            onChange={(e) => setTop(e.target.value)}
          />
        )}
        <SelectField
          label="Move them to"
          value={targetId}
          error={error?.field === 'target' ? error.message : null}
          onChange={(e) => setTarget(e.target.value)}
        >
          {targets.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </SelectField>
        <Checkbox
          label="Write them an access email"
          hint="Opens a draft to exactly the people let in, ready to edit and send. Nothing is sent until you send it."
          checked={accessEmail}
          onChange={(e) => setAccessEmail(e.target.checked)}
        />
        <Checkbox
          label={`Also send ${targetName}'s welcome email`}
          hint="Enrols those not already on the list in its welcome automation (the email a reader gets on signing up), which sends it now at the send rate."
          checked={welcome}
          onChange={(e) => setWelcome(e.target.checked)}
        />
        <StatusMessage tone="info">
          They are subscribed to {targetName}, confirmed, and leave {waitlist.name} (shown as
          unsubscribed from it in their history). Everyone behind them moves up at once.{' '}
          {letInEmailsText(accessEmail, welcome, targetName)}
        </StatusMessage>
        {error?.field === null ? <StatusMessage tone="error">{error.message}</StatusMessage> : null}
        <p>
          <Button type="submit" variant="primary" icon={<DoorOpen />} loading={busy}>
            Let in
          </Button>{' '}
          <Button type="button" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
        </p>
      </form>
    </Dialog>
  );
}

/** What the people let in are sent, in words, as the dialog's choices stand. */
function letInEmailsText(accessEmail: boolean, welcome: boolean, targetName: string): string {
  const tagged = 'They are tagged, so the access email reaches only them';
  if (accessEmail && welcome) return `${tagged}; ${targetName}'s welcome is sent to them now.`;
  if (accessEmail) return `${tagged}; ${targetName}'s welcome is not sent.`;
  if (welcome) return `${targetName}'s welcome is sent to them now; no other email.`;
  return `No email is sent, not even ${targetName}'s welcome.`;
}
