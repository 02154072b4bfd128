// The automation's report card (issue 24): enrolments (in progress, completed, exited), what its
// emails did (sent, failed, bounced, unsubscribed; opened and clicked as unique readers when
// tracked), then the same per email step; live (team:automations) with its status shown.
import Link from 'next/link';
import type { ReactNode } from 'react';
import { Card, ErrorState, Table, tableStyles } from '../../ui';
import { StatTiles, type Stat } from '../StatTiles';
import { FeedIndicator } from '../SignupFeed';
import { percent } from '../../../lib/admin/campaign-report';
import {
  isEmptyReport,
  showsEngagement,
  stepCounts,
  type AutomationReport as Report,
  type StepCounts,
} from '../../../lib/admin/automation-report';
import type { StepRow } from '../../../lib/admin/automations';
import { formatCount } from '../../../lib/admin/format';
import type { LiveStatus } from '../../../lib/admin/live-channel';
import styles from './Automations.module.css';

export interface AutomationReportProps {
  report: Report | null | undefined;
  error: Error | undefined;
  retrying: boolean;
  onRetry: () => void;
  steps: StepRow[];
  status: string;
  tracking: { opens: boolean; clicks: boolean };
  live: LiveStatus;
}

const plural = (n: number, one: string, other: string) => (n === 1 ? one : other);

export function AutomationReport(props: AutomationReportProps) {
  const { error, steps, tracking } = props;
  const report = props.report ?? undefined;
  const emailSteps = steps.filter((s) => s.kind === 'email');
  const perStep = emailSteps.map((s) => stepCounts(report, s.id));
  const showOpens = showsEngagement(tracking.opens, perStep, 'unique_opens');
  const showClicks = showsEngagement(tracking.clicks, perStep, 'unique_clicks');

  let body: ReactNode;
  if (error && !report) {
    body = (
      <ErrorState
        title="The report could not be loaded."
        message={error.message}
        onRetry={props.onRetry}
        retrying={props.retrying}
      />
    );
  } else {
    const t = report?.totals;
    const value = (n: number | undefined) => (n === undefined ? null : n);
    const enrolments: Stat[] = [
      { label: 'In progress', value: value(t?.active), tone: 'brand' },
      { label: 'Completed', value: value(t?.completed), tone: 'success' },
      { label: 'Exited', value: value(t?.exited), hint: 'unsubscribed or left early' },
    ];
    const emails: Stat[] = [
      { label: 'Sent', value: value(t?.sent), tone: 'success' },
      {
        label: 'Failed',
        value: value(t?.failed),
        hint: t?.failed ? `${percent(t.failed, t.sent + t.failed)} of attempts` : undefined,
        tone: 'danger',
      },
      {
        label: 'Bounced',
        value: value(t?.bounced),
        hint: t?.sent ? `${percent(t.bounced, t.sent)} of sent` : undefined,
        tone: 'danger',
      },
      {
        label: 'Unsubscribed',
        value: value(t?.unsubscribed),
        hint: t?.sent ? `${percent(t.unsubscribed, t.sent)} of sent` : undefined,
      },
    ];
    if (showOpens)
      emails.push({
        label: 'Opened',
        value: value(t?.unique_opens),
        hint: t
          ? `${percent(t.unique_opens, t.sent)} of sent · ${formatCount(t.opens)} ${plural(t.opens, 'open', 'opens')}`
          : undefined,
        tone: 'brand',
      });
    if (showClicks)
      emails.push({
        label: 'Clicked',
        value: value(t?.unique_clicks),
        hint: t
          ? `${percent(t.unique_clicks, t.sent)} of sent · ${formatCount(t.clicks)} ${plural(t.clicks, 'click', 'clicks')}`
          : undefined,
        tone: 'success',
      });
    body = (
      <div className={styles.report} aria-busy={report ? undefined : true}>
        <StatTiles label="Enrolments" stats={enrolments} />
        <StatTiles label="Emails" stats={emails} />
        {t && isEmptyReport(t) ? (
          <p className={styles.note}>
            {props.status === 'draft'
              ? 'Nobody is enrolled yet. Start the automation and the numbers appear here, live, as people join.'
              : 'Nobody is enrolled yet. The numbers appear here, live, as people join.'}
          </p>
        ) : null}
        {emailSteps.length > 0 ? (
          <StepTable
            steps={emailSteps}
            counts={report ? perStep : null}
            allSteps={steps}
            showOpens={showOpens}
            showClicks={showClicks}
          />
        ) : null}
        {!showOpens || !showClicks ? (
          <p className={styles.note}>
            {!showOpens && !showClicks
              ? 'Opens and clicks are'
              : !showOpens
                ? 'Opens are'
                : 'Clicks are'}{' '}
            not tracked. The owner can turn tracking on in{' '}
            <Link href="/admin/settings/">Settings</Link>; it counts from the next email sent.
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <Card title="Report" aria-label="Report" actions={<FeedIndicator status={props.live} />}>
      {body}
    </Card>
  );
}

function StepTable(props: {
  steps: StepRow[];
  allSteps: StepRow[];
  counts: StepCounts[] | null;
  showOpens: boolean;
  showClicks: boolean;
}) {
  const { steps, counts, showOpens, showClicks } = props;
  type Column = readonly [keyof StepCounts, string, 'sent' | null];
  const columns: Column[] = [
    ['active', 'Waiting', null],
    ['sent', 'Sent', null],
    ['failed', 'Failed', null],
    ['bounced', 'Bounced', 'sent'],
    ['unsubscribed', 'Unsubscribed', 'sent'],
    ...(showOpens ? [['unique_opens', 'Opened', 'sent'] as const] : []),
    ...(showClicks ? [['unique_clicks', 'Clicked', 'sent'] as const] : []),
  ];
  return (
    <Table caption="By email step" stack>
      <thead>
        <tr>
          <th scope="col">Step</th>
          {columns.map(([key, label]) => (
            <th key={key} scope="col" className={tableStyles.num}>
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {steps.map((step, i) => {
          const c = counts?.[i];
          const place = props.allSteps.indexOf(step) + 1;
          return (
            <tr key={step.id}>
              <th scope="row" className={tableStyles.full}>
                <span className={styles.muted}>Step {place} · </span>
                {step.subject}
              </th>
              {columns.map(([key, label, of]) => (
                <td key={key} className={tableStyles.num} data-label={label}>
                  {c ? formatCount(c[key]) : '—'}
                  {c && of && c[of] ? (
                    <span className={`${styles.rate} ${styles.muted}`}>
                      {percent(c[key], c[of])}
                    </span>
                  ) : null}
                </td>
              ))}
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
