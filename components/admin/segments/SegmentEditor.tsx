// The segment rule editor (issue 24): a name, conditions joined by all/any, and beside them a live
// count with the newest matching subscribers. Viewers and editors see it read-only; admins and
// owners save (the database checks the rules and answers with the path of anything wrong).
import { ArrowLeft, Plus, Save, SearchX } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useEffect, useState } from 'react';
import { defaultRule, ruleBlank, withRule } from '../../../lib/admin/segments-editor';
import { plainMessage, segmentNameProblem } from '../../../lib/admin/segments';
import { EVERYONE, type RuleGroup } from '../../../lib/admin/subscriber-rules';
import { useRulesPreview, useSegment, useSegmentWrite } from '../../../lib/admin/use-segments';
import { useListOptions } from '../../../lib/admin/use-subscribers';
import { useTags } from '../../../lib/admin/use-tags';
import { useAdmin } from '../AdminContext';
import {
  Button,
  Card,
  EmptyState,
  ErrorState,
  LoadingState,
  SelectField,
  StatusMessage,
  TextField,
} from '../../ui';
import { ConditionRow } from './ConditionRow';
import styles from './Segments.module.css';

export function SegmentEditor({ id }: { id: string | null }) {
  const { can } = useAdmin();
  const editable = can('manage-subscribers');
  const router = useRouter();
  const segment = useSegment(id);
  const lists = useListOptions();
  const tags = useTags();
  const write = useSegmentWrite();
  const [name, setName] = useState('');
  const [rules, setRules] = useState<RuleGroup>(EVERYONE);
  const [loaded, setLoaded] = useState(id === null);
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (loaded || !segment.data) return;
    setName(segment.data.name);
    setRules(segment.data.rules);
    setLoaded(true);
  }, [loaded, segment.data]);

  const blanks = rules.rules.some((r) => ruleBlank(r) !== null);
  const preview = useRulesPreview(loaded && !blanks ? rules : null);

  const back = (
    <Link href="/admin/subscribers/segments/" className={styles.back}>
      <ArrowLeft aria-hidden="true" width={18} height={18} />
      All segments
    </Link>
  );
  if (id !== null && segment.error && segment.data === undefined) {
    return (
      <ErrorState
        title="This segment could not be loaded."
        message={segment.error.message}
        onRetry={() => void segment.mutate()}
      />
    );
  }
  if (!loaded && segment.data === null) {
    return (
      <EmptyState icon={<SearchX />} title="Segment not found." action={back}>
        There is no segment with this id. It may have been deleted.
      </EmptyState>
    );
  }
  if (!loaded) return <LoadingState label="Loading segment…" />;

  const change = (next: RuleGroup) => {
    setRules(next);
    setSaved(false);
  };
  const save = async () => {
    const problem = segmentNameProblem(name);
    setNameProblem(problem);
    if (problem || blanks) return;
    const savedId = await write.save({ id: id ?? undefined, name, rules });
    if (!savedId) return;
    setSaved(true);
    if (!id) {
      await router.replace(`/admin/subscribers/segments/edit/?id=${savedId}`);
    }
  };

  let previewBody;
  if (blanks) {
    previewBody = <p className={styles.muted}>Fill in every condition to count the matches.</p>;
  } else if (preview.error) {
    previewBody = <StatusMessage tone="error">{plainMessage(preview.error.message)}</StatusMessage>;
  } else if (!preview.data) {
    previewBody = <LoadingState label="Counting subscribers…" />;
  } else {
    const { count, sample } = preview.data;
    previewBody = (
      <>
        <p className={styles.count} aria-live="polite">
          {count.toLocaleString('en')} {count === 1 ? 'subscriber' : 'subscribers'}
          {preview.isValidating ? <span className={styles.muted}> (updating…)</span> : null}
        </p>
        {sample.length === 0 ? (
          <p className={styles.muted}>Nobody matches these conditions now.</p>
        ) : (
          <ul className={styles.sample} aria-label="Newest matching subscribers">
            {sample.map((s) => (
              <li key={s.id}>
                <Link href={`/admin/subscribers/view/?id=${s.id}`}>{s.email}</Link>
                {s.name ? <span className={styles.muted}> · {s.name}</span> : null}
              </li>
            ))}
          </ul>
        )}
      </>
    );
  }

  return (
    <div className={styles.stack}>
      {back}
      <div className={styles.editor}>
        <Card title="Conditions">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            <fieldset
              disabled={!editable}
              style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}
            >
              <div className={styles.row}>
                <TextField
                  label="Name"
                  value={name}
                  maxLength={100}
                  error={nameProblem}
                  onChange={(e) => {
                    setName(e.target.value);
                    setNameProblem(null);
                    setSaved(false);
                  }}
                />
                <SelectField
                  label="Match"
                  value={rules.match}
                  onChange={(e) => change({ ...rules, match: e.target.value as 'all' | 'any' })}
                >
                  <option value="all">All conditions</option>
                  <option value="any">Any condition</option>
                </SelectField>
              </div>
              {rules.rules.length === 0 ? (
                <p className={styles.muted}>No conditions: every subscriber matches.</p>
              ) : null}
              <ol className={styles.conditions} aria-label="Conditions">
                {rules.rules.map((rule, i) => (
                  <li key={i} className={styles.condition}>
                    <ConditionRow
                      rule={rule}
                      index={i}
                      lists={lists.data ?? []}
                      tags={tags.data ?? []}
                      onChange={(next) => change(withRule(rules, i, next))}
                      onRemove={() => change(withRule(rules, i, null))}
                    />
                  </li>
                ))}
              </ol>
              {editable ? (
                <div className={styles.row}>
                  <Button
                    icon={<Plus />}
                    onClick={() => change(withRule(rules, rules.rules.length, defaultRule('tag')))}
                    disabled={rules.rules.length >= 20}
                  >
                    Add condition
                  </Button>
                  <Button type="submit" variant="primary" icon={<Save />} loading={write.pending}>
                    Save segment
                  </Button>
                </div>
              ) : (
                <p className={styles.muted}>Segments are changed by admins and owners.</p>
              )}
            </fieldset>
          </form>
          {write.error ? (
            <StatusMessage tone="error">{plainMessage(write.error.message)}</StatusMessage>
          ) : saved ? (
            <StatusMessage tone="success">Segment saved.</StatusMessage>
          ) : null}
        </Card>
        <Card title="Matching now">
          {previewBody}
          {id ? (
            <p>
              <Link href={`/admin/subscribers/?segment=${id}`}>Open in Subscribers</Link> to export
              or act on them.
            </p>
          ) : null}
        </Card>
      </div>
    </div>
  );
}
