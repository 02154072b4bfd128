// Adds or edits one step: what kind, then its fields — an email's subject, preheader and Markdown
// body with merge tags (rendered by the campaign renderer), a wait's duration or weekday and hour,
// the segment a "continue only if" step checks, the list or tag of a list or tag step. Errors
// from the database show next to the form.
import { useState, type FormEvent } from 'react';
import { Button, SelectField, StatusMessage, TextArea, TextField } from '../../ui';
import {
  segmentOf,
  segmentRules,
  STEP_KINDS,
  type StepKind,
  type StepRow,
  type StepValues,
} from '../../../lib/admin/automations';
import styles from './Automations.module.css';

const UNITS = { minutes: 60, hours: 3600, days: 86400 } as const;
type Unit = keyof typeof UNITS;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function initialWait(step?: StepRow): { amount: string; unit: Unit } {
  const s = step?.wait_seconds ?? 86400;
  const unit: Unit = s % 86400 === 0 ? 'days' : s % 3600 === 0 ? 'hours' : 'minutes';
  return { amount: String(s / UNITS[unit]), unit };
}

export interface StepFormProps {
  step?: StepRow;
  lists: { id: string; name: string }[];
  tags: { id: string; name: string }[];
  segments: { id: string; name: string }[];
  onSave: (values: StepValues & { kind: StepKind }) => Promise<string | null>;
  onCancel: () => void;
}

export function StepForm({ step, lists, tags, segments, onSave, onCancel }: StepFormProps) {
  const [kind, setKind] = useState<StepKind>((step?.kind as StepKind) ?? 'email');
  const [subject, setSubject] = useState(step?.subject ?? '');
  const [preheader, setPreheader] = useState(step?.preheader ?? '');
  const [body, setBody] = useState(step?.body_md ?? 'Hello {{ subscriber.first_name }},\n\n');
  const [waitMode, setWaitMode] = useState(step?.wait_weekday != null ? 'weekday' : 'duration');
  const [wait, setWait] = useState(initialWait(step));
  const [weekday, setWeekday] = useState(String(step?.wait_weekday ?? 1));
  const [hour, setHour] = useState(String(step?.wait_hour ?? 9));
  const [listId, setListId] = useState(step?.list_id ?? lists[0]?.id ?? '');
  const [tagId, setTagId] = useState(step?.tag_id ?? tags[0]?.id ?? '');
  // A condition written as other rules (not one segment) keeps them until a segment is chosen.
  const customRules = step?.kind === 'condition' && !segmentOf(step.rules);
  const [segmentId, setSegmentId] = useState(
    segmentOf(step?.rules) ?? (customRules ? '' : (segments[0]?.id ?? '')),
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const values = (): (StepValues & { kind: StepKind }) | string => {
    if (kind === 'email') {
      if (!subject.trim()) return 'Subject: must be 1 to 200 characters.';
      return { kind, subject, preheader, body_md: body };
    }
    if (kind === 'wait') {
      if (waitMode === 'weekday')
        return { kind, wait_seconds: null, wait_weekday: Number(weekday), wait_hour: Number(hour) };
      const seconds = Math.round(Number(wait.amount) * UNITS[wait.unit]);
      if (!Number.isFinite(seconds) || seconds < 60 || seconds > 31_536_000)
        return 'Wait: from 1 minute to 365 days.';
      return { kind, wait_seconds: seconds, wait_weekday: null, wait_hour: null };
    }
    if (kind === 'list_add' || kind === 'list_remove')
      return listId ? { kind, list_id: listId } : 'Choose a list.';
    if (kind === 'condition') {
      if (segmentId) return { kind, rules: segmentRules(segmentId) };
      if (customRules) return { kind };
      return 'Choose a segment (create segments under Subscribers → Segments).';
    }
    if (kind === 'tag_add' || kind === 'tag_remove')
      return tagId
        ? { kind, tag_id: tagId }
        : 'Choose a tag (create tags on the Subscribers page).';
    return { kind };
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const v = values();
    if (typeof v === 'string') return setError(v);
    setBusy(true);
    const failure = await onSave(v);
    setBusy(false);
    setError(failure);
  };

  return (
    <form
      className={styles.stepForm}
      onSubmit={(e) => void submit(e)}
      aria-label={step ? 'Edit step' : 'Add a step'}
    >
      {error ? <StatusMessage tone="error">{error}</StatusMessage> : null}
      <SelectField
        label="Step"
        value={kind}
        disabled={!!step}
        onChange={(e) => setKind(e.target.value as StepKind)}
      >
        {STEP_KINDS.map((k) => (
          <option key={k.kind} value={k.kind}>
            {k.label}
          </option>
        ))}
      </SelectField>
      {kind === 'email' ? (
        <>
          <TextField
            label="Subject"
            value={subject}
            maxLength={200}
            onChange={(e) => setSubject(e.target.value)}
          />
          <TextField
            label="Preheader"
            optional
            value={preheader}
            maxLength={200}
            onChange={(e) => setPreheader(e.target.value)}
          />
          <TextArea
            label="Body (Markdown)"
            hint="Merge tags as in campaigns, e.g. {{ subscriber.first_name }}; {{ list.name }} names the trigger list, and on a waitlist {{ waitlist.position }}, {{ waitlist.referral_url }} and {{ waitlist.place_url }} work."
            rows={8}
            value={body}
            onChange={(e) => setBody(e.target.value)}
          />
        </>
      ) : null}
      {kind === 'wait' ? (
        <div className={styles.row}>
          <SelectField
            label="Wait for"
            value={waitMode}
            onChange={(e) => setWaitMode(e.target.value)}
          >
            <option value="duration">A duration</option>
            <option value="weekday">A weekday and hour (UTC)</option>
          </SelectField>
          {waitMode === 'duration' ? (
            <>
              <TextField
                label="Amount"
                type="number"
                min={1}
                value={wait.amount}
                onChange={(e) => setWait({ ...wait, amount: e.target.value })}
              />
              <SelectField
                label="Unit"
                value={wait.unit}
                onChange={(e) => setWait({ ...wait, unit: e.target.value as Unit })}
              >
                <option value="minutes">minutes</option>
                <option value="hours">hours</option>
                <option value="days">days</option>
              </SelectField>
            </>
          ) : (
            <>
              <SelectField
                label="Weekday"
                value={weekday}
                onChange={(e) => setWeekday(e.target.value)}
              >
                {WEEKDAYS.map((d, i) => (
                  <option key={d} value={i}>
                    {d}
                  </option>
                ))}
              </SelectField>
              <SelectField
                label="Hour (UTC)"
                value={hour}
                onChange={(e) => setHour(e.target.value)}
              >
                {Array.from({ length: 24 }, (_, h) => (
                  <option key={h} value={h}>
                    {String(h).padStart(2, '0')}:00
                  </option>
                ))}
              </SelectField>
            </>
          )}
        </div>
      ) : null}
      {kind === 'condition' ? (
        <SelectField
          label="Segment"
          value={segmentId}
          hint="Who is not in it when they reach this step leaves the automation; the others go on."
          onChange={(e) => setSegmentId(e.target.value)}
        >
          {customRules ? <option value="">Keep the rules it has</option> : null}
          {!customRules && segments.length === 0 ? <option value="">No segments yet</option> : null}
          {segments.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
        </SelectField>
      ) : null}
      {kind === 'list_add' || kind === 'list_remove' ? (
        <SelectField label="List" value={listId} onChange={(e) => setListId(e.target.value)}>
          {lists.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </SelectField>
      ) : null}
      {kind === 'tag_add' || kind === 'tag_remove' ? (
        <SelectField label="Tag" value={tagId} onChange={(e) => setTagId(e.target.value)}>
          {tags.length === 0 ? <option value="">No tags yet</option> : null}
          {tags.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </SelectField>
      ) : null}
      <div className={styles.actions}>
        <Button type="submit" variant="primary" loading={busy}>
          {step ? 'Save step' : 'Add step'}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
