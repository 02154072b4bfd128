// The automation report (issue 24): per automation and per step, read from the views
// automation_report and automation_step_report under the reader's RLS (members read them), and
// the small pure helpers the report card uses. Opens and clicks are unique readers (machine opens
// left out); opens/clicks totals are there too. Per automation, the feedback is the sum of its steps.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../database.types';
import type { SupabaseResult } from '../use-query';

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
