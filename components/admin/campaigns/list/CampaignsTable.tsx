// The campaigns table: name and subject (linking to the editor or the report), status, lists,
// recipients and sent, the time that matters for the status, and Duplicate (editors and up) and
// Delete where allowed.
import { Trash2 } from 'lucide-react';
import Link from 'next/link';
import { Button, Table, tableStyles } from '../../../ui';
import { campaignHref, type CampaignSummary } from '../../../../lib/admin/campaigns';
import { formatCount, formatMoment } from '../../../../lib/admin/format';
import { DuplicateButton } from '../DuplicateButton';
import { CampaignStatusBadge } from './CampaignStatusBadge';
import styles from './Campaigns.module.css';

/** The one time worth showing in a row: when it is due, went out, or was made. */
export function campaignMoment(c: CampaignSummary): { label: string; at: string | null } {
  switch (c.status) {
    case 'scheduled':
      return { label: 'Scheduled for', at: c.scheduled_at };
    case 'sending':
    case 'paused':
      return { label: 'Started', at: c.started_at };
    case 'sent':
      return { label: 'Finished', at: c.finished_at };
    case 'cancelled':
      return { label: 'Cancelled', at: c.finished_at };
    default:
      return { label: 'Created', at: c.created_at };
  }
}

export function CampaignsTable({
  campaigns,
  canDelete,
  canDuplicate,
  onDelete,
}: {
  campaigns: CampaignSummary[];
  canDelete: (campaign: CampaignSummary) => boolean;
  canDuplicate: boolean;
  onDelete: (campaign: CampaignSummary) => void;
}) {
  const anyActions = canDuplicate || campaigns.some(canDelete);
  return (
    <Table caption="Campaigns, newest first" captionHidden stack>
      <thead>
        <tr>
          <th scope="col">Campaign</th>
          <th scope="col">Status</th>
          <th scope="col">Lists</th>
          <th scope="col" className={tableStyles.num}>
            Sent / recipients
          </th>
          <th scope="col">When</th>
          {anyActions ? (
            <th scope="col" className={tableStyles.actions}>
              <span className="visually-hidden">Actions</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {campaigns.map((c) => {
          const moment = campaignMoment(c);
          return (
            <tr key={c.id} data-campaign-id={c.id}>
              <th scope="row" className={`${styles.nameCell} ${tableStyles.full}`}>
                <Link href={campaignHref(c)} className={styles.name}>
                  {c.name}
                </Link>
                <span className={styles.subject}>{c.subject || 'No subject yet'}</span>
              </th>
              <td data-label="Status">
                <CampaignStatusBadge status={c.status} />
              </td>
              <td data-label="Lists" className={styles.lists}>
                {c.lists.length ? c.lists.map((l) => l.name).join(', ') : '—'}
              </td>
              <td data-label="Sent" className={tableStyles.num}>
                {c.status === 'draft' || c.status === 'scheduled' || c.recipients === 0
                  ? '—'
                  : `${formatCount(c.sent)} / ${formatCount(c.recipients)}`}
              </td>
              <td data-label={moment.label} className={styles.when}>
                <span className={`${styles.whenLabel} ${styles.wideOnly}`}>{moment.label}</span>
                {moment.at ? <time dateTime={moment.at}>{formatMoment(moment.at)}</time> : '—'}
              </td>
              {anyActions ? (
                <td className={`${tableStyles.actions} ${tableStyles.full}`}>
                  <span className={styles.rowActions}>
                    {canDuplicate ? <DuplicateButton campaignId={c.id} name={c.name} /> : null}
                    {canDelete(c) ? (
                      <Button
                        size="sm"
                        variant="ghost"
                        icon={<Trash2 />}
                        onClick={() => onDelete(c)}
                        aria-label={`Delete ${c.name}`}
                      >
                        Delete
                      </Button>
                    ) : null}
                  </span>
                </td>
              ) : null}
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
