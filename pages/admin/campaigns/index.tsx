// /admin/campaigns/: every campaign by status, newest first, live while they send; editors start a
// new campaign (blank or from a template; created at its first save), duplicate any campaign and
// delete drafts; admins also delete sent and cancelled campaigns. Templates are one click away.
import { ChevronLeft, ChevronRight, LayoutTemplate, Mail, SquarePen } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import AdminLayout, { useAdmin } from '../../../components/admin/AdminLayout';
import { CampaignsTable } from '../../../components/admin/campaigns/list/CampaignsTable';
import styles from '../../../components/admin/campaigns/list/Campaigns.module.css';
import { StatusTabs } from '../../../components/admin/campaigns/list/StatusTabs';
import { TemplatePicker } from '../../../components/admin/campaigns/templates/TemplatePicker';
import { FeedIndicator } from '../../../components/admin/SignupFeed';
import {
  Button,
  buttonClass,
  Card,
  ConfirmDialog,
  EmptyState,
  ErrorState,
  LoadingState,
  StatusMessage,
} from '../../../components/ui';
import {
  canDeleteCampaign,
  isCampaignFilter,
  type CampaignCursor,
  type CampaignFilter,
  type CampaignSummary,
} from '../../../lib/admin/campaigns';
import {
  useCampaignChanges,
  useCampaigns,
  useCampaignWrites,
} from '../../../lib/admin/use-campaigns';
import { roleRank } from '../../../lib/roles';
import { useSearchParam } from '../../../lib/use-search-params';
import { useConfirmedDelete } from '../../../lib/admin/use-confirmed-delete';

const EMPTY_TITLES: Record<CampaignFilter, string> = {
  all: 'No campaigns yet.',
  draft: 'No drafts.',
  scheduled: 'Nothing is scheduled.',
  active: 'Nothing is sending right now.',
  sent: 'No campaign has been sent yet.',
  cancelled: 'No cancelled campaigns.',
};

const CARD_TITLES: Record<CampaignFilter, string> = {
  all: 'All campaigns',
  draft: 'Drafts',
  scheduled: 'Scheduled',
  active: 'Sending and paused',
  sent: 'Sent',
  cancelled: 'Cancelled',
};

function CampaignsContent({ filter }: { filter: CampaignFilter }) {
  const { can, role } = useAdmin();
  const canWrite = can('write-campaigns');
  const isAdmin = roleRank(role) >= roleRank('admin');
  // Keyset pages: the cursor of each page visited, so "Newer" goes back exactly.
  const [cursors, setCursors] = useState<(CampaignCursor | null)[]>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const { data, error, isValidating, mutate } = useCampaigns(filter, cursor);
  const live = useCampaignChanges();
  const writes = useCampaignWrites();
  const [picking, setPicking] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const deletion = useConfirmedDelete(
    (c: CampaignSummary) => writes.remove(c.id),
    (deleted: CampaignSummary) => setNotice(`Campaign “${deleted.name}” deleted.`),
  );
  const deleting = deletion.target;

  const newButton = canWrite ? (
    <Button variant="primary" icon={<SquarePen />} onClick={() => setPicking(true)}>
      New campaign
    </Button>
  ) : null;

  const rows = data?.rows;
  let body;
  if (error) {
    body = (
      <ErrorState
        title="The campaigns could not be loaded."
        message={error.message}
        onRetry={() => void mutate()}
        retrying={isValidating}
      />
    );
  } else if (!rows) {
    body = <LoadingState label="Loading campaigns…" />;
  } else if (rows.length === 0 && filter === 'all') {
    body = (
      <EmptyState title={EMPTY_TITLES.all} icon={<Mail />} action={newButton}>
        <p className={styles.explain}>
          A campaign is one email — an issue of your newsletter — written in Markdown and sent to
          the confirmed subscribers of the lists you choose. You can test it, schedule it, and
          follow its delivery here.
          {canWrite ? '' : ' An editor can write the first one.'}
        </p>
      </EmptyState>
    );
  } else if (rows.length === 0) {
    body = <EmptyState title={EMPTY_TITLES[filter]} icon={<Mail />} />;
  } else {
    body = (
      <>
        <CampaignsTable
          campaigns={rows}
          canDelete={(c) => canDeleteCampaign(c.status, canWrite, isAdmin)}
          canDuplicate={canWrite}
          onDelete={(c) => {
            setNotice(null);
            deletion.ask(c);
          }}
        />
        {cursors.length > 1 || data?.next ? (
          <div className={styles.pager}>
            <Button
              size="sm"
              icon={<ChevronLeft />}
              disabled={cursors.length <= 1}
              onClick={() => setCursors((c) => c.slice(0, -1))}
            >
              Newer
            </Button>
            <Button
              size="sm"
              icon={<ChevronRight />}
              disabled={!data?.next}
              onClick={() => data?.next && setCursors((c) => [...c, data.next])}
            >
              Older
            </Button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <div className={styles.page}>
      {notice ? <StatusMessage tone="success">{notice}</StatusMessage> : null}
      <div className={styles.toolbar}>
        <StatusTabs current={filter} />
        <div className={styles.toolbarActions}>
          <Link className={buttonClass('secondary')} href="/admin/campaigns/templates/">
            <LayoutTemplate aria-hidden="true" />
            Templates
          </Link>
          {/* Also while loading, so the toolbar keeps its width (the empty state has its own). */}
          {rows?.length === 0 && filter === 'all' ? null : newButton}
        </div>
      </div>
      {canWrite ? <TemplatePicker open={picking} onClose={() => setPicking(false)} /> : null}
      <Card title={CARD_TITLES[filter]} actions={<FeedIndicator status={live} />} flush>
        {body}
      </Card>
      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? `Delete ${deleting.name}?` : 'Delete campaign?'}
        confirmLabel="Delete campaign"
        busy={deletion.busy}
        error={deletion.error}
        onCancel={deletion.cancel}
        onConfirm={() => void deletion.confirm()}
      >
        {deleting?.status === 'draft' ? (
          <p>This draft and its content are removed for good.</p>
        ) : (
          <p>
            The campaign, its delivery log and its report are removed for good; it also leaves the
            public archive. Its subscribers stay.
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}

export default function CampaignsPage() {
  const { ready, value } = useSearchParam('status');
  const filter: CampaignFilter = isCampaignFilter(value) ? value : 'all';
  return (
    <AdminLayout title="Campaigns">
      {ready ? (
        <CampaignsContent key={filter} filter={filter} />
      ) : (
        <LoadingState label="Loading campaigns…" />
      )}
    </AdminLayout>
  );
}
