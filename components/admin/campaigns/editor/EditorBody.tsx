// One loaded campaign: the status bar (status, save state, Save), the details, the Markdown body
// beside its preview, the list picker and the sending controls. Read-only unless an editor opens
// a draft; when the campaign stops being a draft (sent from here or elsewhere) it locks at once.
import { BarChart3 } from 'lucide-react';
import Link from 'next/link';
import { useEffect } from 'react';
import type { CampaignRow } from '../../../../lib/admin/campaign-editor-form';
import { useCampaignDraft } from '../../../../lib/admin/use-campaign-editor-draft';
import { useRecipientCount } from '../../../../lib/admin/use-recipient-count';
import type { CampaignForm } from '../../../../lib/admin/campaign-editor-form';
import { Badge, buttonClass, Card, statusTone, StatusMessage } from '../../../ui';
import { useAdmin } from '../../AdminLayout';
import { BodyEditor } from './BodyEditor';
import { DetailsFields } from './DetailsFields';
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
}: {
  campaign: CampaignRow;
  initial: { form: CampaignForm; listIds: string[] };
}) {
  const { can } = useAdmin();
  const isDraft = campaign.status === 'draft';
  const editable = isDraft && can('write-campaigns');
  const draft = useCampaignDraft(campaign.id, initial, editable);
  const { save } = draft;
  const count = useRecipientCount(draft.listIds);
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
      <div className={styles.statusBar}>
        <div className={styles.statusLeft}>
          <Badge tone={statusTone(campaign.status)}>
            {STATUS_LABELS[campaign.status] ?? campaign.status}
          </Badge>
          <span className={styles.campaignName}>{draft.form.name}</span>
        </div>
        <div className={styles.statusRight}>
          {editable ? (
            <SaveIndicator state={draft.state} savedAt={draft.savedAt} onSave={save} />
          ) : null}
          {!isDraft ? reportLink : null}
        </div>
      </div>

      {!isDraft ? (
        <StatusMessage tone="info">
          This campaign is {STATUS_LABELS[campaign.status]?.toLowerCase() ?? campaign.status}, so it
          can no longer be edited. Only drafts are editable.
        </StatusMessage>
      ) : !editable ? (
        <StatusMessage tone="info">
          You can read this draft. Editors, admins and owners can change it.
        </StatusMessage>
      ) : null}
      {draft.formError ? <StatusMessage tone="error">{draft.formError}</StatusMessage> : null}

      <div className={styles.top}>
        <Card title="Details" className={styles.details}>
          <DetailsFields
            form={draft.form}
            errors={draft.errors}
            readOnly={!editable}
            onChange={draft.set}
          />
        </Card>
        <div className={styles.side}>
          <Card title="Recipients">
            <ListPicker
              selected={draft.listIds}
              onChange={draft.setLists}
              readOnly={!editable}
              error={draft.errors.lists}
              fixedRecipients={live ? null : campaign.recipients}
              count={count}
            />
          </Card>
          <SendPanel campaign={campaign} draft={draft} count={count} />
        </div>
      </div>

      <Card title="Content" className={styles.compose}>
        <BodyEditor
          form={draft.form}
          error={draft.errors.bodyMd}
          readOnly={!editable}
          onChange={(value) => draft.set('bodyMd', value)}
        />
      </Card>
    </div>
  );
}
