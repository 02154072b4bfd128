// An automation's name, trigger and exit rules (the trigger list and whether only sign-ups from the
// form start it, a goal segment), and its status controls: Start (a draft or paused one, admins and
// owners), Pause. Blocklisted and everywhere-unsubscribed subscribers always exit. A list's seeded
// welcome (issue 24) says so, with a badge.
import { Pause, Play } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Badge, Button, Checkbox, SelectField, StatusMessage, TextField } from '../../ui';
import {
  segmentOf,
  segmentRules,
  WELCOME_LABEL,
  type AutomationChanges,
  type AutomationRow,
} from '../../../lib/admin/automations';
import styles from './Automations.module.css';
import welcome from './Welcome.module.css';

export interface AutomationSettingsProps {
  automation: AutomationRow;
  editable: boolean;
  canRun: boolean;
  lists: { id: string; name: string }[];
  tags: { id: string; name: string }[];
  segments: { id: string; name: string }[];
  onSave: (changes: AutomationChanges) => Promise<string | null>;
}

/** The goal select's value for rules that are not one segment (kept as they are). */
const CUSTOM_GOAL = 'custom';

export function AutomationSettings({
  automation: a,
  editable,
  canRun,
  lists,
  tags,
  segments,
  onSave,
}: AutomationSettingsProps) {
  const [name, setName] = useState(a.name);
  const [trigger, setTrigger] = useState(a.trigger_kind);
  const [listId, setListId] = useState(a.trigger_list_id ?? lists[0]?.id ?? '');
  const [tagId, setTagId] = useState(a.trigger_tag_id ?? tags[0]?.id ?? '');
  const [signupsOnly, setSignupsOnly] = useState(a.trigger_signups_only);
  const [exitOnList, setExitOnList] = useState(a.exit_on_list_unsubscribe);
  const [reEntry, setReEntry] = useState(a.re_entry);
  const [goal, setGoal] = useState(
    a.goal_rules === null ? '' : (segmentOf(a.goal_rules) ?? CUSTOM_GOAL),
  );
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const run = async (what: string, changes: AutomationChanges, done: string) => {
    setBusy(what);
    const failure = await onSave(changes);
    setBusy(null);
    setMessage(failure ? { tone: 'error', text: failure } : { tone: 'success', text: done });
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    void run(
      'save',
      {
        name,
        trigger_kind: trigger,
        trigger_list_id: trigger === 'list' ? listId || null : null,
        trigger_tag_id: trigger === 'tag' ? tagId || null : null,
        ...(trigger === 'list' ? { trigger_signups_only: signupsOnly } : {}),
        exit_on_list_unsubscribe: exitOnList,
        re_entry: reEntry,
        ...(goal === CUSTOM_GOAL ? {} : { goal_rules: goal ? segmentRules(goal) : null }),
      },
      'Saved.',
    );
  };

  return (
    <form onSubmit={save} className={styles.page} aria-label="Automation settings">
      {a.status === 'paused' ? (
        <StatusMessage tone="info">
          Paused: everyone stays at their step and nobody new is enrolled until it is started again.
        </StatusMessage>
      ) : null}
      {a.welcome ? (
        <p className={welcome.note}>
          <Badge tone="brand">{WELCOME_LABEL}</Badge>
          <span>
            The list&rsquo;s welcome email, sent to each reader who signs up through the form (on a
            double opt-in list, once they confirm). Edit its email below, add steps to make it a
            sequence, or pause it to stop welcomes.
          </span>
        </p>
      ) : null}
      {message ? <StatusMessage tone={message.tone}>{message.text}</StatusMessage> : null}
      <div className={styles.settings}>
        <TextField
          label="Name"
          value={name}
          maxLength={100}
          disabled={!editable}
          onChange={(e) => setName(e.target.value)}
        />
        <SelectField
          label="Starts when"
          value={trigger}
          disabled={!editable}
          onChange={(e) => setTrigger(e.target.value)}
        >
          <option value="list">Someone joins a list (at confirmation)</option>
          <option value="tag">A tag is added</option>
          <option value="manual">Enrolled by hand</option>
        </SelectField>
        {trigger === 'list' ? (
          <SelectField
            label="List"
            value={listId}
            disabled={!editable}
            onChange={(e) => setListId(e.target.value)}
          >
            {lists.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        {trigger === 'tag' ? (
          <SelectField
            label="Tag"
            value={tagId}
            disabled={!editable}
            onChange={(e) => setTagId(e.target.value)}
          >
            {tags.length === 0 ? <option value="">No tags yet</option> : null}
            {tags.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        <SelectField
          label="Goal"
          value={goal}
          disabled={!editable}
          hint="Joining it ends their run (checked before each step)."
          onChange={(e) => setGoal(e.target.value)}
        >
          <option value="">No goal</option>
          {goal === CUSTOM_GOAL ? (
            <option value={CUSTOM_GOAL}>Rules set elsewhere (kept)</option>
          ) : null}
          {segments.map((g) => (
            <option key={g.id} value={g.id}>
              Exit on joining {g.name}
            </option>
          ))}
        </SelectField>
      </div>
      {trigger === 'list' ? (
        <Checkbox
          label="Only new sign-ups from the form"
          hint="Readers who subscribe through the signup form or its API. Imports, people added by the team or by a bulk action, and a Let in (unless it asks for the welcome) do not start it."
          checked={signupsOnly}
          disabled={!editable}
          onChange={(e) => setSignupsOnly(e.target.checked)}
        />
      ) : null}
      <Checkbox
        label="Exit when they unsubscribe from the trigger list"
        checked={exitOnList}
        disabled={!editable}
        onChange={(e) => setExitOnList(e.target.checked)}
      />
      <Checkbox
        label="Let someone go through again after finishing"
        checked={reEntry}
        disabled={!editable}
        onChange={(e) => setReEntry(e.target.checked)}
      />
      <div className={styles.actions}>
        <Badge
          tone={a.status === 'active' ? 'success' : a.status === 'paused' ? 'warning' : 'neutral'}
        >
          {a.status === 'active' ? 'Active' : a.status === 'paused' ? 'Paused' : 'Draft'}
        </Badge>
        {editable ? (
          <Button type="submit" loading={busy === 'save'}>
            Save settings
          </Button>
        ) : null}
        {canRun && a.status !== 'active' ? (
          <Button
            type="button"
            variant="primary"
            icon={<Play />}
            loading={busy === 'start'}
            onClick={() => void run('start', { status: 'active' }, 'Started.')}
          >
            {a.status === 'paused' ? 'Resume' : 'Start'}
          </Button>
        ) : null}
        {canRun && a.status === 'active' ? (
          <Button
            type="button"
            icon={<Pause />}
            loading={busy === 'pause'}
            onClick={() => void run('pause', { status: 'paused' }, 'Paused.')}
          >
            Pause
          </Button>
        ) : null}
      </div>
    </form>
  );
}
