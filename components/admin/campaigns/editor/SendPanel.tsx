// Sending a campaign through send-campaign: a test to team addresses (editors and up); send now
// (after a confirmation naming the recipients) or schedule (admins and up); unschedule back to a
// draft; pause, resume (an edited paused campaign is checked and saved first) and cancel while it
// is scheduled or paused (SPEC §4: a sending campaign is paused first); and the progress. Each
// error sits at its control.
import { CalendarClock, CalendarX, FlaskConical, Pause, Play, Send, XCircle } from 'lucide-react';
import { useState } from 'react';
import {
  hasErrors,
  localInputValue,
  scheduleTime,
  validateCampaign,
  type CampaignRow,
} from '../../../../lib/admin/campaign-editor-form';
import { parseEmailList, type CampaignAction } from '../../../../lib/admin/campaign-editor';
import { formatCount, formatMoment } from '../../../../lib/admin/format';
import { useCampaignActions } from '../../../../lib/admin/use-campaign-editor';
import type { useCampaignDraft } from '../../../../lib/admin/use-campaign-editor-draft';
import { Button, Card, ConfirmDialog, StatusMessage, TextField } from '../../../ui';
import { useAdmin } from '../../AdminLayout';
import { SendProgress } from '../SendProgress';
import styles from './Editor.module.css';
import type { CountState } from './ListPicker';

type Draft = ReturnType<typeof useCampaignDraft>;
type Busy = 'test' | 'send' | 'schedule' | 'unschedule' | 'pause' | 'resume' | 'cancel' | null;

export function SendPanel({
  campaign,
  draft,
  count,
}: {
  campaign: CampaignRow;
  draft: Draft;
  count: CountState;
}) {
  const { can, member } = useAdmin();
  const actions = useCampaignActions(draft.currentId);
  const [busy, setBusy] = useState<Busy>(null);
  const [testTo, setTestTo] = useState(member.email);
  const [testError, setTestError] = useState<string | null>(null);
  const [at, setAt] = useState('');
  const [atError, setAtError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'send' | 'cancel' | null>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const status = campaign.status;
  const isDraft = status === 'draft';
  const mayTest = can('send-test');
  const maySend = can('send-campaigns');

  /** Checks for a send, then saves what is typed: false (errors shown) when it cannot go. */
  async function ready(needLists: boolean, send = true): Promise<boolean> {
    const found = validateCampaign(draft.form, { send });
    if (needLists && draft.listIds.length === 0) found.lists = 'Choose at least one list.';
    if (hasErrors(found)) {
      draft.setErrors(found);
      return false;
    }
    return draft.save();
  }

  /** A refusal from send-campaign, shown at its field or beside the control used. */
  function place(result: { field: string | null; message: string }, local: (m: string) => void) {
    if (result.field === 'subject' || result.field === 'lists') {
      draft.setErrors({ [result.field]: result.message });
    } else {
      local(result.message);
    }
  }

  async function sendTest() {
    setTestError(null);
    // An error of Send at belongs to the last Schedule, not to this action.
    setAtError(null);
    setNotice(null);
    setBusy('test');
    try {
      if ((isDraft || status === 'paused') && !(await ready(false))) return;
      const result = await actions.test(parseEmailList(testTo));
      if (result.ok) setNotice(`Test sent to ${result.sent.join(', ')}.`);
      else place(result, setTestError);
    } finally {
      setBusy(null);
    }
  }

  async function openSend() {
    setError(null);
    setAtError(null);
    setNotice(null);
    setBusy('send');
    const ok = await ready(true);
    setBusy(null);
    if (ok) {
      setConfirmError(null);
      setConfirm('send');
    }
  }

  async function run(action: CampaignAction, when?: string) {
    setError(null);
    setNotice(null);
    setBusy(action);
    // A paused campaign may have been edited: the edit is checked and saved before it resumes.
    if (action === 'resume' && !(await ready(false, true))) {
      setBusy(null);
      return;
    }
    const result = await actions.run(action, when);
    setBusy(null);
    if (result.ok) {
      setConfirm(null);
      if (action === 'schedule') setNotice('Scheduled.');
      if (action === 'unschedule') {
        setNotice('Back to draft: edit it, then schedule or send it again.');
      }
      return;
    }
    if (result.field === 'bodyMd') {
      draft.setErrors({ bodyMd: result.message });
      setConfirm(null);
      return;
    }
    if (confirm) {
      // Field errors belong beside their field, so the dialog makes way for them.
      if (result.field === 'subject' || result.field === 'lists') setConfirm(null);
      place(result, setConfirmError);
    } else if (action === 'schedule') {
      place(result, setAtError);
    } else {
      place(result, setError);
    }
  }

  async function schedule() {
    setAtError(null);
    const when = scheduleTime(at);
    if (!when.ok) {
      setAtError(when.message);
      return;
    }
    setBusy('schedule');
    const ok = await ready(true);
    setBusy(null);
    if (ok) await run('schedule', when.at);
  }

  const recipients = typeof count.data === 'number' ? count.data : null;
  const showProgress = ['sending', 'paused', 'sent'].includes(status) || campaign.recipients > 0;

  return (
    <Card title="Send">
      <div className={styles.send}>
        {showProgress && status !== 'draft' && status !== 'scheduled' ? (
          <SendProgress campaign={campaign} />
        ) : null}
        {status === 'scheduled' && campaign.scheduled_at ? (
          <p className={styles.hintText}>
            Goes out on {formatMoment(campaign.scheduled_at)} to the chosen lists.
          </p>
        ) : null}
        {status === 'cancelled' ? (
          <p className={styles.hintText}>This campaign was cancelled.</p>
        ) : null}

        {mayTest && (isDraft || status === 'scheduled' || status === 'paused') ? (
          <div className={styles.actionGroup}>
            <TextField
              label="Test recipients"
              hint="Team members' addresses, separated by commas (at most 5)."
              value={testTo}
              onChange={(e) => {
                setTestTo(e.target.value);
                setTestError(null);
              }}
              error={testError}
              autoComplete="off"
              spellCheck={false}
            />
            <Button
              icon={<FlaskConical />}
              loading={busy === 'test'}
              onClick={() => void sendTest()}
            >
              Send test
            </Button>
          </div>
        ) : null}

        {maySend && isDraft ? (
          <>
            <div className={styles.actionGroup}>
              <TextField
                label="Send at"
                type="datetime-local"
                hint="Your local time."
                value={at}
                min={localInputValue(new Date())}
                onChange={(e) => {
                  setAt(e.target.value);
                  setAtError(null);
                }}
                error={atError}
              />
              <Button
                icon={<CalendarClock />}
                loading={busy === 'schedule'}
                onClick={() => void schedule()}
              >
                Schedule
              </Button>
            </div>
            <Button
              variant="primary"
              icon={<Send />}
              loading={busy === 'send'}
              onClick={() => void openSend()}
            >
              Send now
            </Button>
          </>
        ) : null}

        {maySend && ['scheduled', 'sending', 'paused'].includes(status) ? (
          <div className={styles.buttonRow}>
            {status === 'sending' ? (
              <Button icon={<Pause />} loading={busy === 'pause'} onClick={() => void run('pause')}>
                Pause
              </Button>
            ) : null}
            {status === 'scheduled' ? (
              <Button
                icon={<CalendarX />}
                loading={busy === 'unschedule'}
                onClick={() => void run('unschedule')}
              >
                Unschedule
              </Button>
            ) : null}
            {status === 'paused' ? (
              <Button
                variant="primary"
                icon={<Play />}
                loading={busy === 'resume'}
                onClick={() => void run('resume')}
              >
                Resume
              </Button>
            ) : null}
            {status === 'sending' ? null : (
              <Button
                variant="danger"
                icon={<XCircle />}
                onClick={() => {
                  setConfirmError(null);
                  setConfirm('cancel');
                }}
              >
                Cancel campaign
              </Button>
            )}
          </div>
        ) : null}
        {maySend && status === 'sending' ? (
          <p className={styles.hintText}>To cancel the campaign, pause it first.</p>
        ) : null}

        {!mayTest ? (
          <p className={styles.hintText}>
            Viewers can read campaigns; editors and up can send tests.
          </p>
        ) : !maySend && isDraft ? (
          <p className={styles.hintText}>Admins and owners send and schedule campaigns.</p>
        ) : null}
        {notice ? <StatusMessage tone="success">{notice}</StatusMessage> : null}
        {error ? <StatusMessage tone="error">{error}</StatusMessage> : null}
      </div>

      <ConfirmDialog
        open={confirm === 'send'}
        title="Send this campaign now?"
        confirmLabel={recipients === null ? 'Send now' : `Send to ${formatCount(recipients)}`}
        busy={busy === 'send'}
        error={confirmError}
        onCancel={() => setConfirm(null)}
        onConfirm={() => void run('send')}
      >
        <p>
          “{draft.form.subject}” goes to{' '}
          <strong>
            {recipients === null
              ? 'every confirmed subscriber of the chosen lists'
              : `${formatCount(recipients)} ${recipients === 1 ? 'recipient' : 'recipients'}`}
          </strong>
          . Once sending starts it can be paused (an admin may then correct its subject and body) or
          cancelled.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'cancel'}
        title="Cancel this campaign?"
        confirmLabel="Stop and cancel"
        cancelLabel={status === 'scheduled' ? 'Keep scheduled' : 'Keep sending'}
        danger
        busy={busy === 'cancel'}
        error={confirmError}
        onCancel={() => setConfirm(null)}
        onConfirm={() => void run('cancel')}
      >
        <p>
          {status === 'scheduled'
            ? 'It will not go out. To change it instead, unschedule it.'
            : 'Messages not sent yet are dropped; those already sent stay sent.'}{' '}
          A cancelled campaign cannot be restarted, but it can be duplicated.
        </p>
      </ConfirmDialog>
    </Card>
  );
}
