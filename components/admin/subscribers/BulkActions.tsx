// The bulk actions bar: an action (add to / remove from a list, confirm, unsubscribe, blocklist,
// export, delete) applied to the selected rows or to every subscriber matching the filter. The
// dialog asks with the number of subscribers it will touch, then shows progress batch by batch.
import { Play } from 'lucide-react';
import { useState } from 'react';
import { formatCount } from '../../../lib/admin/format';
import { bulkDoneText, bulkQuestion, type BulkAction } from '../../../lib/admin/subscriber-bulk';
import type { RuleGroup } from '../../../lib/admin/subscriber-rules';
import { useMatchCount, useSubscriberBulk } from '../../../lib/admin/use-subscriber-bulk';
import type { ListOption } from '../../../lib/admin/use-subscribers';
import { useAdmin } from '../AdminContext';
import { Button, ConfirmDialog, ProgressBar, SelectField, StatusMessage } from '../../ui';
import { BulkTagField } from '../tags/BulkTagField';
import styles from './Subscribers.module.css';

export interface BulkResult {
  tone: 'success' | 'error';
  text: string;
}

type Choice = BulkAction | 'export';

const LABELS: Record<Choice, string> = {
  add: 'Add to a list',
  remove: 'Remove from a list',
  confirm: 'Confirm pending subscriptions',
  unsubscribe: 'Unsubscribe',
  blocklist: 'Blocklist',
  tag: 'Add a tag',
  untag: 'Remove a tag',
  export: 'Export CSV',
  delete: 'Delete',
};

const EXPLAIN: Partial<Record<BulkAction, string>> = {
  add: 'Blocklisted subscribers and those already on the list are left as they are.',
  blocklist: 'They are unsubscribed from every list and never sent to again.',
  delete: 'Their subscriptions and history are deleted too. This cannot be undone.',
};

export function BulkActions({
  target,
  label,
  lists,
  onExport,
  onDone,
}: {
  /** The subscribers the action applies to: the selected ids or the page's filter, as rules. */
  target: RuleGroup;
  /** What the bar says is chosen, e.g. "3 selected" or "All 1,234 matching selected". */
  label: string;
  lists: ListOption[];
  onExport: (rules: RuleGroup) => void;
  onDone: (result: BulkResult) => void;
}) {
  const { can } = useAdmin();
  const [choice, setChoice] = useState<Choice>('add');
  const [list, setList] = useState('');
  const [tag, setTag] = useState('');
  const needsTag = choice === 'tag' || choice === 'untag';
  const [asking, setAsking] = useState(false);
  const bulk = useSubscriberBulk();
  const count = useMatchCount(asking ? target : null);

  const needsList = choice === 'add' || choice === 'remove';
  const listName = needsTag ? `“${tag.trim()}”` : lists.find((l) => l.id === list)?.name;
  const choices = (Object.keys(LABELS) as Choice[]).filter((c) =>
    c === 'delete' ? can('delete-subscribers') : c === 'export' ? can('import-export') : true,
  );
  const running = bulk.state.status === 'running';
  const total = count.data ?? null;

  const apply = () => {
    if (choice === 'export') return onExport(target);
    bulk.reset();
    setAsking(true);
  };

  const confirm = async () => {
    if (choice === 'export') return;
    const outcome = await bulk.run(choice, target, { list: list || null, tag: tag.trim() }, total);
    if (outcome.status === 'done') {
      setAsking(false);
      onDone({ tone: 'success', text: bulkDoneText(choice, outcome.progress.changed, listName) });
    }
  };

  let progress = null;
  if (bulk.state.status === 'running' || bulk.state.status === 'failed') {
    const { processed } = bulk.state.progress;
    const percent = total ? Math.min(100, Math.floor((processed / total) * 100)) : 0;
    const text = `${formatCount(processed)} of ${formatCount(total ?? processed)} done`;
    progress = (
      <div className={styles.bulkProgress}>
        <span>{text}</span>
        <ProgressBar
          aria-label="Bulk action progress"
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={text}
          percent={percent}
          tone={bulk.state.status === 'failed' ? 'muted' : 'brand'}
          size="sm"
        />
      </div>
    );
  }
  const failure =
    bulk.state.status === 'failed'
      ? `Stopped after ${formatCount(bulk.state.progress.processed)}: ${bulk.state.error.message.replace(/^postbox:[a-z_]+: /, '')}`
      : count.error
        ? `The subscribers could not be counted: ${count.error.message}`
        : null;

  return (
    <div className={styles.bulk} role="group" aria-label="Bulk actions">
      <span className={styles.bulkCount}>{label}</span>
      <div className={styles.bulkForm}>
        <SelectField
          label="Action"
          value={choice}
          onChange={(e) => setChoice(e.target.value as Choice)}
          disabled={running}
        >
          {choices.map((c) => (
            <option key={c} value={c}>
              {LABELS[c]}
            </option>
          ))}
        </SelectField>
        {needsList || choice === 'confirm' || choice === 'unsubscribe' ? (
          <SelectField
            label="List"
            value={list}
            onChange={(e) => setList(e.target.value)}
            disabled={running}
          >
            <option value="">{needsList ? 'Choose a list…' : 'All lists'}</option>
            {lists.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        {needsTag ? <BulkTagField value={tag} onChange={setTag} disabled={running} /> : null}
        <Button
          size="sm"
          variant={choice === 'delete' ? 'danger' : 'primary'}
          icon={<Play />}
          disabled={running || (needsList && !list) || (needsTag && !tag.trim())}
          onClick={apply}
        >
          Apply
        </Button>
      </div>
      {choice !== 'export' ? (
        <ConfirmDialog
          open={asking}
          title={total === null ? 'Counting subscribers…' : bulkQuestion(choice, total, listName)}
          confirmLabel={bulk.state.status === 'failed' ? 'Try again' : LABELS[choice]}
          danger={choice === 'delete' || choice === 'blocklist'}
          busy={running || (total === null && !count.error)}
          error={failure}
          onConfirm={() => void confirm()}
          onCancel={() => {
            setAsking(false);
            if (bulk.state.status === 'failed') {
              onDone({
                tone: 'error',
                text: `${LABELS[choice]} stopped after ${formatCount(bulk.state.progress.processed)} subscribers.`,
              });
            }
            bulk.reset();
          }}
        >
          {EXPLAIN[choice] ?? 'Each change is recorded in the subscriber’s history.'}
          {progress}
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

export function BulkResultMessage({ result }: { result: BulkResult | null }) {
  if (!result) return null;
  return <StatusMessage tone={result.tone}>{result.text}</StatusMessage>;
}
