// The lists a campaign goes to (public and private), as checkboxes in a fieldset, and the live
// number of recipients: enabled subscribers confirmed on any chosen list, each address once.
import { Users } from 'lucide-react';
import { formatCount } from '../../../../lib/admin/format';
import { useLists } from '../../../../lib/admin/use-lists';
import { Badge, Checkbox, ErrorState, LoadingState } from '../../../ui';
import styles from './Editor.module.css';

export interface CountState {
  data?: number | null;
  error?: Error;
  isValidating: boolean;
}

function RecipientCount({ listIds, count }: { listIds: string[]; count: CountState }) {
  let text;
  if (count.error && count.data === undefined) text = 'The recipient count could not be read.';
  else if (count.data === undefined || count.data === null) text = 'Counting recipients…';
  // Not "Choose at least one list.": that is the field's error after a send, said once.
  else if (listIds.length === 0) text = 'No list chosen: 0 recipients';
  else text = `${formatCount(count.data)} ${count.data === 1 ? 'recipient' : 'recipients'}`;
  return (
    <p
      className={styles.recipients}
      aria-live="polite"
      aria-busy={count.isValidating || undefined}
      data-testid="recipient-count"
    >
      <Users aria-hidden="true" />
      {text}
    </p>
  );
}

export function ListPicker({
  selected,
  onChange,
  readOnly,
  error,
  fixedRecipients,
  count,
}: {
  selected: string[];
  onChange: (next: string[]) => void;
  readOnly: boolean;
  error?: string;
  /** Once sending started the recipients are fixed: show that number instead of a live count. */
  fixedRecipients: number | null;
  /** The live count (useRecipientCount), shared with the send confirmation. */
  count: CountState;
}) {
  const lists = useLists();
  if (lists.error && !lists.data) {
    return (
      <ErrorState
        title="The lists could not be loaded."
        message={lists.error.message}
        onRetry={() => void lists.mutate()}
        retrying={lists.isValidating}
      />
    );
  }
  if (!lists.data) return <LoadingState label="Loading lists…" />;

  // Read-only, only the chosen lists matter; editing, every list is a choice.
  const shown = readOnly ? lists.data.filter((l) => selected.includes(l.id)) : lists.data;
  const toggle = (id: string, on: boolean) =>
    onChange(on ? [...selected, id] : selected.filter((l) => l !== id));

  return (
    <div className={styles.lists}>
      <fieldset
        className={styles.fieldset}
        aria-describedby={error ? 'campaign-lists-error' : undefined}
      >
        <legend className={styles.legend}>Send to</legend>
        {shown.length === 0 ? (
          <p className={styles.hintText}>
            {readOnly ? 'No lists chosen.' : 'There are no lists yet. An admin can create one.'}
          </p>
        ) : (
          shown.map((list) => (
            <Checkbox
              key={list.id}
              label={
                <span className={styles.listLabel}>
                  {list.name}
                  {list.visibility === 'private' ? <Badge>Private</Badge> : null}
                </span>
              }
              hint={`${formatCount(list.counts.confirmed)} confirmed`}
              checked={selected.includes(list.id)}
              disabled={readOnly}
              onChange={(e) => toggle(list.id, e.target.checked)}
            />
          ))
        )}
      </fieldset>
      {error ? (
        <p id="campaign-lists-error" className={styles.fieldError} role="alert">
          {error}
        </p>
      ) : null}
      {fixedRecipients !== null ? (
        <p className={styles.recipients} data-testid="recipient-count">
          <Users aria-hidden="true" />
          {`${formatCount(fixedRecipients)} ${fixedRecipients === 1 ? 'recipient' : 'recipients'} (fixed when sending started)`}
        </p>
      ) : (
        <RecipientCount listIds={selected} count={count} />
      )}
    </div>
  );
}
