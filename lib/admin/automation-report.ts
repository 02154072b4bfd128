// The automation report (issue 24): per automation and per step, read from the views
// automation_report and automation_step_report under the reader's RLS (members read them), and
// the small pure helpers the report card uses. Opens and clicks are unique readers (machine opens
// left out); opens/clicks totals are there too. Per automation, the feedback is the sum of its steps.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../database.types';
import type { SupabaseResult } from '../use-query';
import { percent } from './campaign-report';
import { formatCount } from './format';

type Client = SupabaseClient<Database>;

/** Enrolments by state. */
export interface EnrolmentCounts {
  active: number;
  completed: number;
  exited: number;
}

/** What the emails of a step (or all steps) did. */
export interface EmailCounts {
  sent: number;
  failed: number;
  bounced: number;
  unsubscribed: number;
  unique_opens: number;
  unique_clicks: number;
  opens: number;
  clicks: number;
}

export type Counts = EnrolmentCounts & EmailCounts;
/** A step's: who is at it now, who exited there, and its email's numbers (zero for other kinds). */
export type StepCounts = Omit<Counts, 'completed'>;

const KEYS = [
  'active',
  'completed',
  'exited',
  'sent',
  'failed',
  'bounced',
  'unsubscribed',
  'unique_opens',
  'unique_clicks',
  'opens',
  'clicks',
] as const;

export const ZERO: Counts = Object.fromEntries(KEYS.map((k) => [k, 0])) as unknown as Counts;

/** A report row (nulls from a view's outer join are 0) as counts. */
export function countsOf(row: Partial<Record<keyof Counts, number | null>>): Counts {
  return Object.fromEntries(KEYS.map((k) => [k, row[k] ?? 0])) as unknown as Counts;
}

export interface AutomationReport {
  totals: Counts;
  /** By step id; a step with no row yet is all zeros (stepCounts). */
  steps: Record<string, StepCounts>;
}

/** One automation's report; the totals are zeros when the reader may not see it or it is gone. */
export async function getAutomationReport(
  client: Client,
  id: string,
): Promise<SupabaseResult<AutomationReport>> {
  const [totals, steps] = await Promise.all([
    client.from('automation_report').select('*').eq('automation_id', id).maybeSingle(),
    client.from('automation_step_report').select('*').eq('automation_id', id),
  ]);
  for (const r of [totals, steps])
    if (r.error) return { data: null, error: r.error, status: r.status };
  const byStep: Record<string, StepCounts> = {};
  for (const row of steps.data ?? []) {
    if (!row.step_id) continue;
    const { completed: _completed, ...counts } = countsOf(row);
    byStep[row.step_id] = counts;
  }
  return {
    data: { totals: totals.data ? countsOf(totals.data) : ZERO, steps: byStep },
    error: null,
  };
}

export function stepCounts(report: AutomationReport | undefined, stepId: string): StepCounts {
  const { completed: _completed, ...zero } = ZERO;
  return report?.steps[stepId] ?? zero;
}

/** Nobody has been enrolled yet (the report's empty state). */
export function isEmptyReport(totals: Counts): boolean {
  return totals.active + totals.completed + totals.exited + totals.sent + totals.failed === 0;
}

/**
 * Whether opens (clicks) have a column: tracking is on now, or some were counted while it was on
 * (the numbers stay true after it is switched off).
 */
export function showsEngagement(
  tracking: boolean,
  counts: Pick<EmailCounts, 'unique_opens' | 'unique_clicks'>[],
  key: 'unique_opens' | 'unique_clicks',
): boolean {
  return tracking || counts.some((c) => c[key] > 0);
}

/** What the automations list shows in one figure's cell: a headline, a second line, a tooltip. */
export interface ListFigure {
  /** The headline: a count (sent) or a rate of sent ("42%"); "—" when untracked or nothing sent. */
  text: string;
  /** The muted second line: the count behind a rate, or the failed sends under Sent; or null. */
  detail: string | null;
  /** The full sentence on hover (title) and for screen readers. */
  title: string;
}

export interface ListFigures {
  sent: ListFigure;
  opened: ListFigure;
  clicked: ListFigure;
  unsubscribed: ListFigure;
  bounced: ListFigure;
}

const noun = (n: number, one: string, other: string) =>
  `${formatCount(n)} ${n === 1 ? one : other}`;

/**
 * One automation's email figures as the list shows them, as Kit and Mailchimp do: sent (with the
 * failed sends under it), then open, click, unsubscribe and bounce rates of the emails sent, each
 * with its count under it and the whole sentence on hover. Opens and clicks are "—" while not
 * tracked (unless some were counted while tracking was on, as the report does). Rates are of every
 * email the automation sent: a reader who opened two of its emails counts twice, as in the report.
 */
export function listFigures(c: Counts, tracking: { opens: boolean; clicks: boolean }): ListFigures {
  const sent: ListFigure = {
    text: formatCount(c.sent),
    detail: c.failed ? `${formatCount(c.failed)} failed` : null,
    title: `${noun(c.sent, 'email sent', 'emails sent')}, ${formatCount(c.failed)} failed`,
  };
  const rated = (part: number, what: string, extra = ''): ListFigure => ({
    text: percent(part, c.sent),
    detail: formatCount(part),
    title: c.sent
      ? `${formatCount(part)} ${what} of ${noun(c.sent, 'email', 'emails')} sent (${percent(part, c.sent)})${extra}`
      : `${formatCount(part)} ${what}; no email sent yet${extra}`,
  });
  const untracked = (what: string): ListFigure => ({
    text: '—',
    detail: null,
    title: `${what} are not tracked`,
  });
  return {
    sent,
    opened: showsEngagement(tracking.opens, [c], 'unique_opens')
      ? rated(c.unique_opens, 'opened', ` · ${noun(c.opens, 'open', 'opens')} in all`)
      : untracked('Opens'),
    clicked: showsEngagement(tracking.clicks, [c], 'unique_clicks')
      ? rated(c.unique_clicks, 'clicked', ` · ${noun(c.clicks, 'click', 'clicks')} in all`)
      : untracked('Clicks'),
    unsubscribed: rated(c.unsubscribed, 'unsubscribed'),
    bounced: rated(c.bounced, 'bounced'),
  };
}
