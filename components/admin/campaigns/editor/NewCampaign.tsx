// The editor opened without an id: a blank campaign, or one started from a template
// (`?template=`). Nothing is stored until the first save (autosave after typing, Save, or a send
// action), so opening New campaign and leaving makes no draft; that save creates it and the
// address becomes its own (replaced, so Back does not return to a second blank one). A viewer is
// told they cannot create campaigns.
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { unsavedCampaignRow, type CampaignRow } from '../../../../lib/admin/campaign-editor-form';
import { formFromTemplate, type TemplateRow } from '../../../../lib/admin/templates';
import { useCampaign } from '../../../../lib/admin/use-campaign-editor';
import { useTemplate } from '../../../../lib/admin/use-campaign-templates';
import { buttonClass, EmptyState, ErrorState, LoadingState } from '../../../ui';
import { useAdmin } from '../../AdminLayout';
import { EditorBody } from './EditorBody';

function AllCampaigns() {
  return (
    <Link className={buttonClass('secondary')} href="/admin/campaigns/">
      All campaigns
    </Link>
  );
}

/** The editor on a campaign that does not exist yet, then (same form, no remount) on the real row. */
function Unsaved({
  template,
  onCreated,
}: {
  template: TemplateRow | null;
  onCreated: (id: string) => void;
}) {
  const initial = useMemo(
    () => ({ form: formFromTemplate(template), listIds: [] as string[] }),
    [template],
  );
  const placeholder = useMemo(() => unsavedCampaignRow(initial.form), [initial]);
  const [id, setId] = useState<string | null>(null);
  // Once created, the row is kept live like any campaign's (status and counters as it sends).
  const { data } = useCampaign(id);
  const campaign: CampaignRow = data?.campaign ?? placeholder;
  return (
    <EditorBody
      campaign={campaign}
      initial={initial}
      isNew
      onCreated={(row) => {
        setId(row.id);
        onCreated(row.id);
      }}
    />
  );
}

export function NewCampaign({
  templateId,
  onCreated,
}: {
  templateId: string | null;
  onCreated: (id: string) => void;
}) {
  const { can } = useAdmin();
  const { data, error, isValidating, mutate } = useTemplate(templateId);

  if (!can('write-campaigns')) {
    return (
      <EmptyState title="Only editors can create campaigns." action={<AllCampaigns />}>
        You can read every campaign from the campaigns page.
      </EmptyState>
    );
  }
  if (templateId) {
    if (error && !data) {
      return (
        <ErrorState
          title="The template could not be loaded."
          message={error.message}
          onRetry={() => void mutate()}
          retrying={isValidating}
        />
      );
    }
    if (data === undefined) return <LoadingState label="Loading template…" />;
    if (data === null) {
      return (
        <EmptyState title="Template not found." action={<AllCampaigns />}>
          It may have been deleted. Start a blank campaign or choose another template.
        </EmptyState>
      );
    }
  }
  return <Unsaved key={templateId ?? 'blank'} template={data ?? null} onCreated={onCreated} />;
}
