// The report's figures: delivery outcomes always; opens and clicks only when tracking is on.
import Link from 'next/link';
import type { CampaignReport } from '../../../../lib/admin/campaign-report';
import { percent } from '../../../../lib/admin/campaign-report';
import { formatCount } from '../../../../lib/admin/format';
import { Card } from '../../../ui';
import { StatTiles, type Stat } from '../../StatTiles';
import styles from './Report.module.css';

export function ReportFigures({
  report,
  trackOpens,
  trackClicks,
}: {
  report: CampaignReport;
  trackOpens: boolean;
  trackClicks: boolean;
}) {
  const r = report;
  const delivery: Stat[] = [
    { label: 'Recipients', value: r.recipients, hint: 'fixed when sending began', tone: 'brand' },
    {
      label: 'Sent',
      value: r.sent,
      hint: `${percent(r.sent, r.recipients)} of recipients`,
      tone: 'success',
    },
    {
      label: 'Deferred',
      value: r.deferred,
      hint: 'temporary failures, tried again',
      tone: 'warning',
    },
    {
      label: 'Failed',
      value: r.failed,
      hint: `${percent(r.failed, r.recipients)} of recipients`,
      tone: 'danger',
    },
    {
      label: 'Bounced',
      value: r.bounced,
      hint: `${percent(r.bounced, r.sent)} of sent`,
      tone: 'danger',
    },
    {
      label: 'Unsubscribed',
      value: r.unsubscribed,
      hint: r.complained
        ? `${formatCount(r.complained)} marked it as spam`
        : `${percent(r.unsubscribed, r.sent)} of sent`,
      tone: 'neutral',
    },
  ];
  const engagement: Stat[] = [];
  if (trackOpens) {
    engagement.push(
      {
        label: 'Opened',
        value: r.unique_opens,
        hint: `${percent(r.unique_opens, r.sent)} of sent · ${formatCount(r.opens)} ${r.opens === 1 ? 'open' : 'opens'}`,
        tone: 'brand',
      },
      {
        label: 'Machine opens',
        value: r.machine_opens,
        hint: 'mail privacy proxies, not counted above',
        tone: 'neutral',
      },
    );
  }
  if (trackClicks) {
    engagement.push({
      label: 'Clicked',
      value: r.unique_clicks,
      hint: `${percent(r.unique_clicks, r.sent)} of sent · ${formatCount(r.clicks)} ${r.clicks === 1 ? 'click' : 'clicks'}`,
      tone: 'success',
    });
  }
  return (
    <>
      <section className={styles.section} aria-labelledby="delivery-heading">
        <h2 id="delivery-heading" className={styles.sectionTitle}>
          Delivery
        </h2>
        <StatTiles label="Delivery" stats={delivery} />
      </section>
      {engagement.length ? (
        <section className={styles.section} aria-labelledby="engagement-heading">
          <h2 id="engagement-heading" className={styles.sectionTitle}>
            Engagement
          </h2>
          <StatTiles label="Engagement" stats={engagement} />
        </section>
      ) : (
        <Card>
          <p className={styles.note}>
            Opens and clicks are not tracked. The owner can turn tracking on in{' '}
            <Link href="/admin/settings/">Settings</Link>; it counts from the next campaign sent.
          </p>
        </Card>
      )}
    </>
  );
}
