// `/admin/campaigns/edit/?id=`: the campaign editor (the id comes from the query string: static
// export). Without an id (or with `?new`) it makes a new draft and continues at its id.
import { useRouter } from 'next/router';
import AdminLayout from '../../../../components/admin/AdminLayout';
import { CampaignEditor } from '../../../../components/admin/campaigns/editor/CampaignEditor';
import { NewCampaign } from '../../../../components/admin/campaigns/editor/NewCampaign';
import { LoadingState } from '../../../../components/ui';

export default function CampaignEditPage() {
  const router = useRouter();
  const id = typeof router.query.id === 'string' ? router.query.id : '';
  let body;
  if (!router.isReady) body = <LoadingState label="Loading campaign…" />;
  else if (id) body = <CampaignEditor key={id} id={id} />;
  else body = <NewCampaign />;
  return <AdminLayout title="Campaign">{body}</AdminLayout>;
}
