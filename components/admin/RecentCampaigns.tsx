// The dashboard's "Recent campaigns" card (SPEC §2): the last five with status and sent/recipients,
// each linking to its editor (drafts, scheduled) or report; refreshed live as campaigns change.
import { Mail } from 'lucide-react';
import Link from 'next/link';
import { campaignHref } from '../../lib/admin/campaigns';
import { formatCount, formatMoment } from '../../lib/admin/format';
import { useCampaignChanges, useCampaigns } from '../../lib/admin/use-campaigns';
import { campaignMoment } from './campaigns/list/CampaignsTable';
import { CampaignStatusBadge } from './campaigns/list/CampaignStatusBadge';
import { Card, EmptyState, ErrorState, LoadingState } from '../ui';
import styles from './RecentCampaigns.module.css';

export const RECENT_CAMPAIGNS = 5;

export function RecentCampaigns() {
  const { data, error, isValidating, mutate } = useCampaigns('all', null, RECENT_CAMPAIGNS);
  useCampaignChanges();
  let body;
  if (error) {
    body = (
      <ErrorState
        title="Recent campaigns could not be loaded."
        message={error.message}
        onRetry={() => void mutate()}
        retrying={isValidating}
      />
    );
  } else if (!data) {
    body = <LoadingState label="Loading recent campaigns…" />;
  } else if (data.rows.length === 0) {
    body = (
      <EmptyState
        title="No campaigns yet."
        icon={<Mail />}
        action={<Link href="/admin/campaigns/">Go to campaigns</Link>}
      >
        Write an issue and send it to your lists; it shows up here.
      </EmptyState>
    );
  } else {
    body = (
      <ul className={styles.list} aria-label="Recent campaigns">
        {data.rows.map((c) => {
          const moment = campaignMoment(c);
          return (
            <li key={c.id} className={styles.item}>
              <Link href={campaignHref(c)} className={styles.name}>
                {c.name}
              </Link>
              <CampaignStatusBadge status={c.status} />
              <span className={styles.meta}>
                {c.status === 'draft' || c.status === 'scheduled' || c.recipients === 0 ? null : (
                  <span>
                    {formatCount(c.sent)} of {formatCount(c.recipients)} sent
                  </span>
                )}
                <span>
                  {moment.label} {formatMoment(moment.at)}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
    );
  }
  return (
    <Card
      title="Recent campaigns"
      flush
      actions={
        data && data.rows.length ? (
          <Link href="/admin/campaigns/" className={styles.all}>
            All campaigns
          </Link>
        ) : null
      }
    >
      {body}
    </Card>
  );
}
