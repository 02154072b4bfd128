// One condition of the segment rule editor: the field, its operator in words and the value
// controls that field needs (a list, a tag, a date or "the last n days", a number, text).
import { X } from 'lucide-react';
import {
  defaultRule,
  editorField,
  FIELD_LABELS,
  OPERATORS,
  ruleBlank,
  takesValue,
  type EditorField,
} from '../../../lib/admin/segments-editor';
import type { Rule, RuleDate, RuleGroup } from '../../../lib/admin/subscriber-rules';
import type { ListOption } from '../../../lib/admin/use-subscribers';
import type { TagSummary } from '../../../lib/admin/tags';
import { Button, SelectField, TextField } from '../../ui';
import styles from './Segments.module.css';
import { DateValue, NumberValue } from './ValueFields';

type AnyRule = Record<string, unknown> & { field: string; op: string; value?: unknown };

export function ConditionRow({
  rule,
  index,
  lists,
  tags,
  onChange,
  onRemove,
}: {
  rule: Rule | RuleGroup;
  index: number;
  lists: ListOption[];
  tags: TagSummary[];
  onChange: (rule: Rule) => void;
  onRemove: () => void;
}) {
  const field = editorField(rule);
  const n = index + 1;
  const remove = (
    <Button
      size="sm"
      className={styles.removeCondition}
      icon={<X />}
      aria-label={`Remove condition ${n}`}
      onClick={onRemove}
    >
      Remove
    </Button>
  );
  if (field === null) {
    return (
      <>
        <p className={styles.other}>Other condition (kept as it is): {JSON.stringify(rule)}</p>
        {remove}
      </>
    );
  }
  const r = rule as AnyRule;
  const set = (patch: Partial<AnyRule>) => onChange({ ...r, ...patch } as unknown as Rule);
  const value = r.value;
  const sub = (value ?? {}) as Record<string, unknown>;
  const blank = ruleBlank(rule);

  let controls = null;
  if (field === 'search' || field === 'email' || field === 'name') {
    controls = takesValue(r.op) ? (
      <TextField
        label="Text"
        value={String(value ?? '')}
        maxLength={200}
        onChange={(e) => set({ value: e.target.value })}
      />
    ) : null;
  } else if (field === 'status' || field === 'source') {
    const options =
      field === 'status' ? ['enabled', 'blocklisted'] : ['form', 'import', 'team', 'api'];
    const labels: Record<string, string> = {
      enabled: 'Enabled',
      blocklisted: 'Blocklisted',
      form: 'The signup form',
      import: 'An import',
      team: 'The team',
      api: 'The API',
    };
    controls = (
      <SelectField
        label="Value"
        value={String(value)}
        onChange={(e) => set({ value: e.target.value })}
      >
        {options.map((o) => (
          <option key={o} value={o}>
            {labels[o]}
          </option>
        ))}
      </SelectField>
    );
  } else if (field === 'subscription') {
    const put = (key: string, v: string) => {
      const next = { ...sub };
      if (v) next[key] = v;
      else delete next[key];
      set({ value: next });
    };
    controls = (
      <>
        <SelectField
          label="On list"
          value={String(sub.list ?? '')}
          onChange={(e) => put('list', e.target.value)}
        >
          <option value="">Any list</option>
          {lists.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="In status"
          value={String(sub.status ?? '')}
          onChange={(e) => put('status', e.target.value)}
        >
          <option value="">Any status</option>
          <option value="confirmed">Confirmed</option>
          <option value="pending">Pending</option>
          <option value="unsubscribed">Unsubscribed</option>
        </SelectField>
      </>
    );
  } else if (field === 'tag') {
    controls = (
      <SelectField
        label="Tag"
        value={String(value ?? '')}
        onChange={(e) => set({ value: e.target.value })}
      >
        <option value="">Choose a tag…</option>
        {tags.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </SelectField>
    );
  } else if (field === 'attribute') {
    const op = r.op;
    controls = (
      <>
        <TextField
          label="Attribute name"
          value={r.field.slice('attributes.'.length)}
          maxLength={64}
          onChange={(e) => set({ field: `attributes.${e.target.value}` })}
        />
        {!takesValue(op) ? null : op === 'gt' || op === 'lt' ? (
          <NumberValue
            label="Number"
            value={typeof value === 'number' ? value : 0}
            onChange={(v) => set({ value: v })}
          />
        ) : op === 'before' || op === 'after' ? (
          <DateValue
            label="Date"
            value={(value as RuleDate) ?? { days_ago: 30 }}
            onChange={(v) => set({ value: v })}
          />
        ) : (
          <TextField
            label="Value"
            value={typeof value === 'object' ? '' : String(value ?? '')}
            maxLength={200}
            onChange={(e) => set({ value: e.target.value })}
          />
        )}
      </>
    );
  } else if (field === 'created_at' || field === 'opened' || field === 'clicked') {
    controls = (
      <DateValue
        label="When"
        value={(value as RuleDate) ?? { days_ago: 30 }}
        onChange={(v) => set({ value: v })}
      />
    );
  } else if (field === 'referrals' || field === 'received') {
    controls = (
      <NumberValue label="Number" value={Number(value ?? 0)} onChange={(v) => set({ value: v })} />
    );
  } else if (field === 'waitlist_position') {
    controls = (
      <>
        <SelectField
          label="Waitlist"
          value={String(sub.list ?? '')}
          onChange={(e) => set({ value: { ...sub, list: e.target.value } })}
        >
          <option value="">Choose a list…</option>
          {lists.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </SelectField>
        <NumberValue
          label="Place"
          value={Number(sub.position ?? 1)}
          onChange={(v) => set({ value: { ...sub, position: v } })}
        />
      </>
    );
  }

  const changeOp = (op: string) => {
    if (field === 'attribute') {
      const kind = (o: string) =>
        o === 'gt' || o === 'lt'
          ? 'n'
          : o === 'before' || o === 'after'
            ? 'd'
            : takesValue(o)
              ? 't'
              : '-';
      const fresh =
        kind(op) === kind(r.op)
          ? value
          : kind(op) === 'n'
            ? 0
            : kind(op) === 'd'
              ? { days_ago: 30 }
              : '';
      const next: AnyRule = { field: r.field, op };
      if (takesValue(op)) next.value = fresh;
      return onChange(next as unknown as Rule);
    }
    const next: AnyRule = { ...r, op };
    if (!takesValue(op)) delete next.value;
    else if (next.value === undefined) next.value = '';
    onChange(next as unknown as Rule);
  };

  return (
    <>
      <SelectField
        label={`Condition ${n}`}
        value={field}
        onChange={(e) => onChange(defaultRule(e.target.value as EditorField))}
      >
        {(Object.keys(FIELD_LABELS) as EditorField[]).map((f) => (
          <option key={f} value={f}>
            {FIELD_LABELS[f]}
          </option>
        ))}
      </SelectField>
      <SelectField label="Test" value={r.op} onChange={(e) => changeOp(e.target.value)}>
        {Object.entries(OPERATORS[field]).map(([op, label]) => (
          <option key={op} value={op}>
            {label}
          </option>
        ))}
      </SelectField>
      {controls}
      {remove}
      {blank ? <p className={styles.blank}>{blank}</p> : null}
    </>
  );
}
