// The editor's own actions beside Save (editors and up): Duplicate (a new draft copied from this
// campaign, opened at once) and Save as template (its subject, preheader and body, named).
import { LayoutTemplate } from 'lucide-react';
import { useState } from 'react';
import type { CampaignForm } from '../../../../lib/admin/campaign-editor-form';
import { useAdmin } from '../../AdminLayout';
import { Button } from '../../../ui';
import { DuplicateButton } from '../DuplicateButton';
import { SaveTemplateDialog } from '../templates/SaveTemplateDialog';

export function EditorActions({
  campaignId,
  form,
}: {
  /** Null while a new campaign is not saved yet: there is nothing to duplicate. */
  campaignId: string | null;
  form: CampaignForm;
}) {
  const { can } = useAdmin();
  const [saving, setSaving] = useState(false);
  if (!can('write-campaigns')) return null;
  return (
    <>
      <Button size="sm" variant="ghost" icon={<LayoutTemplate />} onClick={() => setSaving(true)}>
        Save as template
      </Button>
      {campaignId ? <DuplicateButton campaignId={campaignId} /> : null}
      <SaveTemplateDialog
        open={saving}
        content={{
          name: form.name,
          description: '',
          subject: form.subject,
          preheader: form.preheader,
          bodyMd: form.bodyMd,
        }}
        onClose={() => setSaving(false)}
      />
    </>
  );
}
