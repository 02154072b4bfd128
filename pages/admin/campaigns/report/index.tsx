// /admin/campaigns/report/?id=: how a campaign went — outcomes, opens and clicks when tracked, a
// live progress bar while it sends, the per-recipient delivery log with "Retry failed", and
// Duplicate (editors and up) to send a new version.
import { ArrowLeft, FileSearch, SquarePen } from 'lucide-react';
import Link from 'next/link';
import AdminLayout, { useAdmin } from '../../../../components/admin/AdminLayout';
import { DuplicateButton } from '../../../../components/admin/campaigns/DuplicateButton';
import { CampaignStatusBadge } from '../../../../components/admin/campaigns/list/CampaignStatusBadge';
import { DeliveryLog } from '../../../../components/admin/campaigns/report/DeliveryLog';
import styles from '../../../../components/admin/campaigns/report/Report.module.css';
import { ReportFigures } from '../../../../components/admin/campaigns/report/ReportFigures';
import { SendProgress } from '../../../../components/admin/campaigns/SendProgress';
import { FeedIndicator } from '../../../../components/admin/SignupFeed';
import { buttonClass, Card, EmptyState, ErrorState, LoadingState } from '../../../../components/ui';
import { duration } from '../../../../lib/admin/campaign-report';
import { formatMoment } from '../../../../lib/admin/format';
import {
  useCampaignReport,
  useLiveReport,
  useReportCampaign,
} from '../../../../lib/admin/use-campaign-report';
import { useSettings } from '../../../../lib/admin/use-settings';
import { useSearchParam } from '../../../../lib/use-search-params';

const ACTIVE = new Set(['sending', 'paused']);

function ReportContent({ id }: { id: string }) {
  const { can } = useAdmin();
  const campaign = useReportCampaign(id);
  const status = campaign.data?.status;
  const report = useCampaignReport(id, status);
  const settings = useSettings();
  const live = useLiveReport(ACTIVE.has(status ?? '') ? id : null);

  const back = (
    <Link href="/admin/campaigns/" className={styles.back}>
      <ArrowLeft aria-hidden="true" />
      All campaigns
    </Link>
  );
  const failure = campaign.error ?? report.error ?? settings.error;
  if (failure) {
    return (
      <div className={styles.page}>
        {back}
        <Card>
          <ErrorState
            title="The report could not be loaded."
            message={failure.message}
            onRetry={() => {
              void campaign.mutate();
              void report.mutate();
              void settings.mutate();
            }}
            retrying={campaign.isValidating || report.isValidating}
          />
        </Card>
      </div>
    );
  }
  if (campaign.data === undefined || report.data === undefined || !settings.data) {
    return <LoadingState label="Loading the report…" />;
  }
  const c = campaign.data;
  const r = report.data;
  if (!c || !r) {
    return (
      <div className={styles.page}>
        {back}
        <Card>
          <EmptyState title="This campaign does not exist." icon={<FileSearch />}>
            It may have been deleted. Pick one from the campaigns list.
          </EmptyState>
        </Card>
      </div>
    );
  }
  const sending = ACTIVE.has(c.status);
  const notStarted = c.status === 'draft' || c.status === 'scheduled';
  return (
    <div className={styles.page}>
      {back}
      <Card
        title={c.name}
        actions={
          <>
            {sending ? <FeedIndicator status={live} /> : null}
            <CampaignStatusBadge status={c.status} />
            {sending ? (
              <Link
                className={buttonClass('secondary', 'sm')}
                href={`/admin/campaigns/edit/?id=${encodeURIComponent(c.id)}`}
              >
                <SquarePen aria-hidden="true" />
                {c.status === 'paused' && can('send-campaigns') ? 'Edit or resume' : 'Open editor'}
              </Link>
            ) : null}
            {can('write-campaigns') ? (
              <DuplicateButton campaignId={c.id} variant="secondary" />
            ) : null}
          </>
        }
      >
        <p className={styles.subject}>{c.subject || 'No subject'}</p>
        <dl className={styles.summary}>
          <div>
            <dt>Lists</dt>
            <dd>{c.lists.length ? c.lists.map((l) => l.name).join(', ') : '—'}</dd>
          </div>
          <div>
            <dt>Started</dt>
            <dd>{formatMoment(r.started_at)}</dd>
          </div>
          <div>
            <dt>Finished</dt>
            <dd>{formatMoment(r.finished_at)}</dd>
          </div>
          <div>
            <dt>{r.finished_at ? 'Duration' : 'Running for'}</dt>
            <dd>{duration(r.started_at, r.finished_at)}</dd>
          </div>
        </dl>
        {sending ? (
          <div className={styles.progress}>
            <SendProgress
              campaign={{
                status: c.status,
                sent: r.sent,
                failed: r.failed,
                recipients: r.recipients,
              }}
            />
          </div>
        ) : null}
      </Card>
      {notStarted ? (
        <Card>
          <EmptyState
            title="This campaign has not been sent yet."
            action={
              <Link
                href={`/admin/campaigns/edit/?id=${encodeURIComponent(c.id)}`}
                className={buttonClass('primary')}
              >
                <SquarePen aria-hidden="true" width={18} height={18} />
                Open in the editor
              </Link>
            }
          >
            Its report fills in once it starts sending.
          </EmptyState>
        </Card>
      ) : (
        <>
          <ReportFigures
            report={r}
            trackOpens={settings.data.track_opens}
            trackClicks={settings.data.track_clicks}
          />
          <DeliveryLog campaignId={c.id} failed={r.failed} canRetry={can('send-campaigns')} />
        </>
      )}
    </div>
  );
}

export default function CampaignReportPage() {
  const { ready, value } = useSearchParam('id');
  return (
    <AdminLayout title="Campaign report">
      {!ready ? (
        <LoadingState label="Loading the report…" />
      ) : value ? (
        <ReportContent id={value} />
      ) : (
        <Card>
          <EmptyState title="No campaign chosen." icon={<FileSearch />}>
            Open a report from the <Link href="/admin/campaigns/">campaigns list</Link>.
          </EmptyState>
        </Card>
      )}
    </AdminLayout>
  );
}
