// The subscriber page's Tags card (issue 24): the subscriber's tags as chips, each removable with
// its own button; admins add one by typing (existing tags are suggested) and pressing Enter.
import { Plus, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { tagNameProblem } from '../../../lib/admin/tags';
import { useSubscriberTags, useTags, useTagWrite } from '../../../lib/admin/use-tags';
import { useAdmin } from '../AdminContext';
import { Button, Card, ErrorState, LoadingState, StatusMessage, TextField } from '../../ui';
import styles from './Tags.module.css';

export function SubscriberTagsCard({ subscriberId }: { subscriberId: string }) {
  const { can } = useAdmin();
  const editable = can('manage-subscribers');
  const tags = useSubscriberTags(subscriberId);
  const all = useTags();
  const write = useTagWrite();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const suggestions = useId();

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const found = tagNameProblem(text);
    setProblem(found);
    if (found) return;
    const name = text.trim();
    if (await write.add(subscriberId, name)) {
      setText('');
      setNote(`Tag “${name}” added.`);
    }
  };
  const remove = async (name: string) => {
    if (await write.remove(subscriberId, name)) setNote(`Tag “${name}” removed.`);
  };

  let body;
  if (tags.error && !tags.data) {
    body = (
      <ErrorState
        title="Tags could not be loaded."
        message={tags.error.message}
        onRetry={() => void tags.mutate()}
      />
    );
  } else if (!tags.data) {
    body = <LoadingState label="Loading tags…" />;
  } else {
    body = (
      <>
        {tags.data.length === 0 ? (
          <p className={styles.none}>No tags yet.</p>
        ) : (
          <ul className={styles.chips} aria-label="Tags">
            {tags.data.map((t) => (
              <li
                key={t.id}
                className={editable ? styles.chip : `${styles.chip} ${styles.chipStatic}`}
              >
                {t.name}
                {editable ? (
                  <button
                    type="button"
                    className={styles.remove}
                    aria-label={`Remove tag ${t.name}`}
                    disabled={write.pending}
                    onClick={() => void remove(t.name)}
                  >
                    <X aria-hidden="true" />
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {editable ? (
          <form className={styles.add} onSubmit={(e) => void add(e)}>
            <TextField
              label="Add a tag"
              placeholder="e.g. VIP"
              value={text}
              maxLength={64}
              list={suggestions}
              autoComplete="off"
              error={problem}
              onChange={(e) => {
                setText(e.target.value);
                setProblem(null);
                setNote(null);
              }}
            />
            <datalist id={suggestions}>
              {(all.data ?? [])
                .filter((t) => !tags.data?.some((mine) => mine.id === t.id))
                .map((t) => (
                  <option key={t.id} value={t.name} />
                ))}
            </datalist>
            <Button type="submit" icon={<Plus />} loading={write.pending}>
              Add tag
            </Button>
          </form>
        ) : null}
        {write.error ? (
          <StatusMessage tone="error">
            {write.error.message.replace(/^postbox:[a-z_]+: /, '')}
          </StatusMessage>
        ) : note ? (
          <p role="status" className={styles.none}>
            {note}
          </p>
        ) : null}
      </>
    );
  }
  return <Card title="Tags">{body}</Card>;
}
