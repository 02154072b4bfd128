// `/admin/campaigns/edit/?id=`: the campaign editor (the id comes from the query string: static
// export). Without an id it is a new campaign (`?template=` starts from a template), created at
// its first save; the address then names it without remounting the editor. `&let_in=N` comes from
// the waitlist's Let in, which drafted this access email: the page says so above the editor, and
// takes it out of the address so a reload does not say it again.
import { useRouter } from 'next/router';
import { useEffect, useRef, useState } from 'react';
import AdminLayout from '../../../../components/admin/AdminLayout';
import { CampaignEditor } from '../../../../components/admin/campaigns/editor/CampaignEditor';
import editorStyles from '../../../../components/admin/campaigns/editor/Editor.module.css';
import { NewCampaign } from '../../../../components/admin/campaigns/editor/NewCampaign';
import { LoadingState, StatusMessage } from '../../../../components/ui';
import { formatCount } from '../../../../lib/admin/format';

/** What a Let in told this page about the campaign it drafted. */
interface LetInArrival {
  id: string;
  count: number;
}

export default function CampaignEditPage() {
  const router = useRouter();
  const id = typeof router.query.id === 'string' ? router.query.id : '';
  // The campaign a new editor on this page created: it stays on screen as it is.
  const [created, setCreated] = useState<string | null>(null);
  // The template a new editor started from, kept while its address changes to the new id.
  const template = typeof router.query.template === 'string' ? router.query.template : null;
  const started = useRef<string | null>(null);
  if (!id) started.current = template;
  // Gone on to another campaign (e.g. its duplicate): Back to this one loads it like any other.
  useEffect(() => {
    if (id && created && id !== created) setCreated(null);
  }, [id, created]);
  const [arrival, setArrival] = useState<LetInArrival | null>(null);
  const letInQuery = router.query.let_in;
  useEffect(() => {
    const count = Number(letInQuery);
    if (!id || !Number.isInteger(count) || count <= 0) return;
    setArrival({ id, count });
    void router.replace(`/admin/campaigns/edit/?id=${encodeURIComponent(id)}`, undefined, {
      shallow: true,
    });
  }, [id, letInQuery, router]);
  const letIn = arrival?.id === id ? arrival : null;
  let body;
  if (!router.isReady) body = <LoadingState label="Loading campaign…" />;
  else if (id && id !== created) {
    body = (
      <div className={editorStyles.page}>
        {letIn ? (
          <StatusMessage tone="success">
            {formatCount(letIn.count)} {letIn.count === 1 ? 'person was' : 'people were'} let in.
            This is their access email: its segment reaches only them. Edit it, send a test, then
            send it.
          </StatusMessage>
        ) : null}
        <CampaignEditor key={id} id={id} />
      </div>
    );
  } else {
    body = (
      <NewCampaign
        key={started.current ?? ''}
        templateId={started.current}
        onCreated={(newId) => {
          setCreated(newId);
          void router.replace(`/admin/campaigns/edit/?id=${encodeURIComponent(newId)}`, undefined, {
            shallow: true,
          });
        }}
      />
    );
  }
  return <AdminLayout title={id || created ? 'Campaign' : 'New campaign'}>{body}</AdminLayout>;
}
