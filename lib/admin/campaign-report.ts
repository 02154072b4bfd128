// Data of /admin/campaigns/report/: the campaign, its numbers (campaign_report() in SQL), the
// per-recipient delivery log in keyset pages, and the arithmetic the page shows (rates, duration).
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../database.types';
import type { SupabaseResult } from '../use-query';
import type { CampaignStatus } from './campaigns';
import { isUuid } from '../uuid';

type Client = SupabaseClient<Database>;

export type CampaignReport = Database['public']['Functions']['campaign_report']['Returns'][number];

export interface ReportCampaign {
  id: string;
  name: string;
  subject: string;
  status: CampaignStatus;
  recipients: number;
  scheduled_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  lists: { id: string; name: string }[];
}

/** A mistyped `?id=` is "no such campaign", not a database error. */
export function isCampaignId(id: string): boolean {
  return isUuid(id);
}

export async function getReportCampaign(
  client: Client,
  id: string,
): Promise<SupabaseResult<ReportCampaign | null>> {
  if (!isCampaignId(id)) return { data: null, error: null };
  const { data, error, status } = await client
    .from('campaigns')
    .select(
      'id,name,subject,status,recipients,scheduled_at,started_at,finished_at,campaign_lists(lists(id,name))',
    )
    .eq('id', id)
    .maybeSingle();
  if (error) return { data: null, error, status };
  if (!data) return { data: null, error: null };
  const { campaign_lists: links, ...rest } = data;
  return {
    data: {
      ...rest,
      status: rest.status as CampaignStatus,
      lists: (links ?? []).flatMap((l) => (l.lists ? [l.lists] : [])),
    },
    error: null,
  };
}

/** The numbers, or null when the caller may not see them (not a member, or no such campaign). */
export async function getCampaignReport(
  client: Client,
  id: string,
): Promise<SupabaseResult<CampaignReport | null>> {
  if (!isCampaignId(id)) return { data: null, error: null };
  const { data, error, status } = await client.rpc('campaign_report', { p_campaign_id: id });
  if (error) return { data: null, error, status };
  const row = data?.[0];
  if (!row) return { data: null, error: null };
  // bigint columns arrive as numbers from PostgREST; make sure of it for the arithmetic.
  const numeric = Object.fromEntries(
    Object.entries(row).map(([k, v]) => [
      k,
      typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v,
    ]),
  ) as CampaignReport;
  return { data: numeric, error: null };
}

export const DELIVERY_STATUSES = ['queued', 'sending', 'sent', 'failed', 'bounced'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export function isDeliveryStatus(value: unknown): value is DeliveryStatus {
  return (DELIVERY_STATUSES as readonly unknown[]).includes(value);
}

export interface DeliveryRow {
  subscriber_id: string;
  email: string | null;
  status: DeliveryStatus;
  attempts: number;
  last_error: string | null;
  sent_at: string | null;
}

export const DELIVERY_PAGE_SIZE = 50;

export interface DeliveryPage {
  rows: DeliveryRow[];
  /** subscriber_id to start the next page after, or null on the last page. */
  next: string | null;
}

/**
 * One page of a campaign's deliveries, keyset on the primary key (campaign_id, subscriber_id) so
 * every page is an index range however large the send; optionally only one delivery status.
 */
export async function listDeliveries(
  client: Client,
  campaignId: string,
  status: DeliveryStatus | null,
  after: string | null,
  limit: number = DELIVERY_PAGE_SIZE,
): Promise<SupabaseResult<DeliveryPage>> {
  let query = client
    .from('deliveries')
    .select('subscriber_id,status,attempts,last_error,sent_at,subscribers(email)')
    .eq('campaign_id', campaignId);
  if (status) query = query.eq('status', status);
  if (after) query = query.gt('subscriber_id', after);
  const { data, error, status: httpStatus } = await query.order('subscriber_id').limit(limit + 1);
  if (error) return { data: null, error, status: httpStatus };
  const rows: DeliveryRow[] = data.map(({ subscribers, ...rest }) => ({
    ...rest,
    status: rest.status as DeliveryStatus,
    email: subscribers?.email ?? null,
  }));
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return {
    data: { rows: page, next: more ? (page[page.length - 1]?.subscriber_id ?? null) : null },
    error: null,
  };
}

/** Whole percent of `part` in `total` ("—" when there is no total). */
export function percent(part: number, total: number): string {
  if (!total) return '—';
  const value = (part / total) * 100;
  return `${value > 0 && value < 1 ? value.toFixed(1) : Math.round(value)}%`;
}

/** "2 h 5 min", "4 min 10 s", "12 s" between two times (to now while still running). */
export function duration(
  startedAt: string | null,
  finishedAt: string | null,
  now: number = Date.now(),
): string {
  if (!startedAt) return '—';
  const end = finishedAt ? Date.parse(finishedAt) : now;
  const seconds = Math.max(0, Math.round((end - Date.parse(startedAt)) / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h) return `${h} h ${m} min`;
  if (m) return `${m} min ${s} s`;
  return `${s} s`;
}

/** The answer of send-campaign `retry` (README "Campaign sending"): how many went back. */
export function parseRetry(data: unknown): { retried: number } | null {
  const retried = (data as { retried?: unknown } | null)?.retried;
  return typeof retried === 'number' && Number.isInteger(retried) && retried >= 0
    ? { retried }
    : null;
}
