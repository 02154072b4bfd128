// One campaign in the editor: the status bar (status, save state, Save, Duplicate, Save as
// template), the details, the Markdown body beside its preview, the list picker and the sending
// controls. Editable by editors while a draft, by admins in part while paused (name, subject,
// preheader, body); read-only otherwise, locking at once when the status moves. A new campaign
// (`isNew`) is a draft that exists from its first save.
import { BarChart3 } from 'lucide-react';
import Link from 'next/link';
import { useEffect } from 'react';
import type { CampaignRow } from '../../../../lib/admin/campaign-editor-form';
import { useSendCount } from '../../../../lib/admin/campaign-audience-use';
import { useCampaignDraft } from '../../../../lib/admin/use-campaign-editor-draft';
import { useRecipientCount } from '../../../../lib/admin/use-recipient-count';
import type { CampaignForm } from '../../../../lib/admin/campaign-editor-form';
import { Badge, buttonClass, Card, statusTone, StatusMessage } from '../../../ui';
import { useAdmin } from '../../AdminLayout';
import { AudienceSegments } from './AudienceSegments';
import { BodyEditor } from './BodyEditor';
import { DetailsFields } from './DetailsFields';
import { EditorActions } from './EditorActions';
import styles from './Editor.module.css';
import { ListPicker } from './ListPicker';
import { SaveIndicator } from './SaveIndicator';
import { SendPanel } from './SendPanel';

const STATUS_LABELS: Record<string, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  sending: 'Sending',
  paused: 'Paused',
  sent: 'Sent',
  cancelled: 'Cancelled',
};

export function EditorBody({
  campaign,
  initial,
  isNew = false,
  onCreated,
}: {
  campaign: CampaignRow;
  initial: { form: CampaignForm; listIds: string[] };
  isNew?: boolean;
  onCreated?: (row: CampaignRow) => void;
}) {
  const { can } = useAdmin();
  const isDraft = campaign.status === 'draft';
  const isPaused = campaign.status === 'paused';
  // SPEC §4 keeps a sending campaign's content fixed; issue 23 lets admins correct a paused one's
  // words (not its audience or sender), checked again when it resumes.
  const pausedEdit = isPaused && can('send-campaigns');
  const editable = (isDraft && can('write-campaigns')) || pausedEdit;
  const draft = useCampaignDraft(isNew ? null : campaign.id, initial, editable, {
    paused: isPaused,
    onCreated,
  });
  const { save } = draft;
  const count = useRecipientCount(draft.listIds);
  // Who a send goes to, shown above the segments and named by the send confirmation: with
  // segments, fewer than the lists hold.
  const sendCount = useSendCount(draft.id, draft.listIds, count);
  // Until a send starts the recipients follow the lists; from then on they are fixed.
  const live = isDraft || campaign.status === 'scheduled';

  // Ctrl+S / Cmd+S saves at once instead of the browser's "save page".
  useEffect(() => {
    if (!editable) return;
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void save();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [editable, save]);

  const reportLink = (
    <Link
      className={buttonClass('secondary', 'sm')}
      href={`/admin/campaigns/report/?id=${encodeURIComponent(campaign.id)}`}
    >
      <BarChart3 aria-hidden="true" />
      View report
    </Link>
  );

  return (
    <div className={styles.page}>
      <div className={styles.head}>
        <div className={styles.statusBar}>
          <div className={styles.statusLeft}>
            <Badge tone={statusTone(campaign.status)}>
              {STATUS_LABELS[campaign.status] ?? campaign.status}
            </Badge>
            <span className={styles.campaignName}>{draft.form.name}</span>
          </div>
          <div className={styles.statusRight}>
            {editable ? (
              <SaveIndicator
                state={draft.state}
                savedAt={draft.savedAt}
                onSave={save}
                notCreated={draft.id === null}
              />
            ) : null}
            <EditorActions campaignId={draft.id} form={draft.form} />
            {!isDraft ? reportLink : null}
          </div>
        </div>

        {pausedEdit ? (
          <StatusMessage tone="info">
            Paused: you can correct the name, subject, preheader and body before resuming. The lists
            and sender stay as sent. Messages already sent keep the old text; the rest get the new
            one, and its merge tags are checked again when you resume.
          </StatusMessage>
        ) : isPaused ? (
          <StatusMessage tone="info">
            This campaign is paused. Admins can correct its subject, preheader and body before it
            resumes.
          </StatusMessage>
        ) : campaign.status === 'scheduled' ? (
          <StatusMessage tone="info">
            This campaign is scheduled, so it cannot be edited.{' '}
            {can('send-campaigns')
              ? 'Unschedule it to make it a draft again, edit it, then schedule it anew.'
              : 'An admin can unschedule it back to a draft.'}
          </StatusMessage>
        ) : !isDraft ? (
          <StatusMessage tone="info">
            This campaign is {STATUS_LABELS[campaign.status]?.toLowerCase() ?? campaign.status}, so
            it can no longer be edited. Duplicate it to send a new version.
          </StatusMessage>
        ) : !editable ? (
          <StatusMessage tone="info">
            You can read this draft. Editors, admins and owners can change it.
          </StatusMessage>
        ) : null}
        {draft.formError ? <StatusMessage tone="error">{draft.formError}</StatusMessage> : null}
      </div>

      <Card title="Details" className={styles.details}>
        <DetailsFields
          form={draft.form}
          errors={draft.errors}
          readOnly={!editable}
          contentOnly={isPaused}
          onChange={draft.set}
        />
      </Card>
      <Card title="Content" className={styles.compose}>
        <BodyEditor
          form={draft.form}
          error={draft.errors.bodyMd}
          readOnly={!editable}
          onChange={(value) => draft.set('bodyMd', value)}
        />
      </Card>
      <div className={styles.side}>
        <Card title="Recipients">
          <ListPicker
            selected={draft.listIds}
            onChange={draft.setLists}
            readOnly={!editable || isPaused}
            error={draft.errors.lists}
            fixedRecipients={live ? null : campaign.recipients}
            count={sendCount}
          />
          <AudienceSegments
            campaignId={draft.id}
            listIds={draft.listIds}
            readOnly={!editable || isPaused}
          />
        </Card>
        <SendPanel campaign={campaign} draft={draft} count={sendCount} />
      </div>
    </div>
  );
}
