// Data of /admin/: totals by status, per-list counts and signups per day, read through the
// security-invoker count functions (supabase/migrations/20261122150000_dashboard_counts.sql).
import { supabase } from '../supabase';
import { queryKey, useQuery, type SupabaseResult } from '../use-query';
import { listLists, type ListWithCounts } from './lists';

export interface DashboardTotals {
  subscribers: { enabled: number; blocklisted: number; total: number };
  subscriptions: { pending: number; confirmed: number; unsubscribed: number };
  lists: ListWithCounts[];
}

export const TOTALS_KEY = queryKey('admin/dashboard/totals');

async function readTotals(): Promise<SupabaseResult<DashboardTotals>> {
  const [statuses, lists] = await Promise.all([
    supabase.rpc('subscriber_status_counts'),
    listLists(supabase),
  ]);
  if (statuses.error) return { data: null, error: statuses.error, status: statuses.status };
  if (lists.error) return { data: null, error: lists.error, status: lists.status };
  const byStatus = new Map((statuses.data ?? []).map((s) => [s.status, Number(s.total)]));
  const enabled = byStatus.get('enabled') ?? 0;
  const blocklisted = byStatus.get('blocklisted') ?? 0;
  const perList = lists.data ?? [];
  const sum = (pick: (l: ListWithCounts) => number) => perList.reduce((n, l) => n + pick(l), 0);
  return {
    data: {
      subscribers: { enabled, blocklisted, total: enabled + blocklisted },
      subscriptions: {
        pending: sum((l) => l.counts.pending),
        confirmed: sum((l) => l.counts.confirmed),
        unsubscribed: sum((l) => l.counts.unsubscribed),
      },
      lists: perList,
    },
    error: null,
  };
}

export function useDashboardTotals() {
  return useQuery(TOTALS_KEY, readTotals);
}

export interface DaySignups {
  day: string;
  signups: number;
}

/** The browser's IANA time zone, so "today" on the chart is the reader's today. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function signupsKey(days: number, timeZone: string): string {
  return queryKey('admin/dashboard/signups', { days, tz: timeZone });
}

export function useSignupsPerDay(days = 30) {
  const timeZone = browserTimeZone();
  return useQuery(signupsKey(days, timeZone), async () => {
    const result = await supabase.rpc('signups_per_day', { p_days: days, p_time_zone: timeZone });
    return {
      data: (result.data ?? []).map((r) => ({ day: r.day, signups: Number(r.signups) })),
      error: result.error,
      status: result.status,
    };
  });
}
