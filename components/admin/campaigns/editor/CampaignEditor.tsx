// The campaign editor for one id: loading, not found and error states, then the form (editable
// for editors while a draft, read-only otherwise) with its preview, lists and sending controls.
import { ArrowLeft, FileSearch } from 'lucide-react';
import Link from 'next/link';
import { useMemo } from 'react';
import { useCampaignSegments } from '../../../../lib/admin/campaign-audience-use';
import { formFromCampaign } from '../../../../lib/admin/campaign-editor-form';
import type { EditableCampaign } from '../../../../lib/admin/campaign-editor';
import { isCampaignId } from '../../../../lib/admin/campaign-report';
import { useCampaign } from '../../../../lib/admin/use-campaign-editor';
import { useLists } from '../../../../lib/admin/use-lists';
import { useSegments } from '../../../../lib/admin/use-segments';
import { buttonClass, EmptyState, ErrorState, LoadingState } from '../../../ui';
import { EditorBody } from './EditorBody';

function BackToList() {
  return (
    <Link className={buttonClass('secondary')} href="/admin/campaigns/">
      <ArrowLeft aria-hidden="true" />
      All campaigns
    </Link>
  );
}

function NotFound() {
  return (
    <EmptyState icon={<FileSearch />} title="Campaign not found." action={<BackToList />}>
      It may have been deleted, or the link is incomplete.
    </EmptyState>
  );
}

function Loaded({ data }: { data: EditableCampaign }) {
  // The working copy starts from the first load only; later loads (Realtime) move status and counters.
  const initial = useMemo(
    () => ({ form: formFromCampaign(data.campaign), listIds: data.listIds }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [data.campaign.id],
  );
  return <EditorBody campaign={data.campaign} initial={initial} />;
}

export function CampaignEditor({ id }: { id: string }) {
  const valid = isCampaignId(id);
  const { data, error, isValidating, mutate } = useCampaign(valid ? id : null);
  // The Recipients card's lists and segments are read with the campaign, and the editor appears
  // once they have answered too: it no longer grows under the Send card when they arrive (CLS
  // 0.016 at 1280 px). A failed read shows in its card.
  const side = [useLists(), useSegments(), useCampaignSegments(valid ? id : null)];
  const sideAnswered = side.every((query) => query.data !== undefined || query.error);
  if (!valid) return <NotFound />;
  if (error && !data) {
    return (
      <ErrorState
        title="The campaign could not be loaded."
        message={error.message}
        onRetry={() => void mutate()}
        retrying={isValidating}
      />
    );
  }
  if (data === undefined || (data && !sideAnswered)) {
    return <LoadingState label="Loading campaign…" />;
  }
  if (data === null) return <NotFound />;
  return <Loaded data={data} />;
}
