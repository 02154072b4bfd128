// Reads and writes of /admin/campaigns/ and the dashboard's recent campaigns: campaigns by status,
// newest first, in keyset pages; a new draft; delete. Takes the client so tests may pass a member's.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../database.types';
import { toQueryError, type SupabaseResult } from '../use-query';
import { NEW_CAMPAIGN_NAME } from './campaign-editor-form';

type Client = SupabaseClient<Database>;

export type CampaignStatus = 'draft' | 'scheduled' | 'sending' | 'paused' | 'sent' | 'cancelled';

/** The list page's filter tabs; "active" groups sending and paused (both have a live queue). */
export const CAMPAIGN_FILTERS = [
  { id: 'all', label: 'All', statuses: null },
  { id: 'draft', label: 'Drafts', statuses: ['draft'] },
  { id: 'scheduled', label: 'Scheduled', statuses: ['scheduled'] },
  { id: 'active', label: 'Sending', statuses: ['sending', 'paused'] },
  { id: 'sent', label: 'Sent', statuses: ['sent'] },
  { id: 'cancelled', label: 'Cancelled', statuses: ['cancelled'] },
] as const satisfies readonly {
  id: string;
  label: string;
  statuses: readonly CampaignStatus[] | null;
}[];

export type CampaignFilter = (typeof CAMPAIGN_FILTERS)[number]['id'];

export function isCampaignFilter(value: unknown): value is CampaignFilter {
  return CAMPAIGN_FILTERS.some((f) => f.id === value);
}

export const STATUS_LABELS: Record<CampaignStatus, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  sending: 'Sending',
  paused: 'Paused',
  sent: 'Sent',
  cancelled: 'Cancelled',
};

export function statusLabel(status: string): string {
  return STATUS_LABELS[status as CampaignStatus] ?? status;
}

export interface CampaignSummary {
  id: string;
  name: string;
  subject: string;
  status: CampaignStatus;
  recipients: number;
  sent: number;
  failed: number;
  scheduled_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  created_at: string;
  lists: { id: string; name: string }[];
}

/** Page size of the admin (SPEC §9). */
export const CAMPAIGN_PAGE_SIZE = 50;

/** Keyset position: the last row of the page before (newest first, ties by id). */
export interface CampaignCursor {
  createdAt: string;
  id: string;
}

export interface CampaignPage {
  rows: CampaignSummary[];
  /** Where the next (older) page starts, or null on the last page. */
  next: CampaignCursor | null;
}

const SUMMARY =
  'id,name,subject,status,recipients,sent,failed,scheduled_at,started_at,finished_at,created_at,campaign_lists(lists(id,name))';

type SummaryRow = Omit<CampaignSummary, 'lists' | 'status'> & {
  status: string;
  campaign_lists: { lists: { id: string; name: string } | null }[] | null;
};

function toSummary(row: SummaryRow): CampaignSummary {
  const { campaign_lists: links, ...rest } = row;
  return {
    ...rest,
    status: row.status as CampaignStatus,
    lists: (links ?? [])
      .flatMap((link) => (link.lists ? [link.lists] : []))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/** One page of campaigns, newest first; `limit` rows (the dashboard asks for 5). */
export async function listCampaigns(
  client: Client,
  filter: CampaignFilter,
  cursor: CampaignCursor | null = null,
  limit: number = CAMPAIGN_PAGE_SIZE,
): Promise<SupabaseResult<CampaignPage>> {
  let query = client.from('campaigns').select(SUMMARY);
  const statuses = CAMPAIGN_FILTERS.find((f) => f.id === filter)?.statuses ?? null;
  if (statuses) query = query.in('status', [...statuses]);
  if (cursor) {
    // (created_at, id) < cursor, newest first; timestamps are quoted for the or() grammar.
    query = query.or(
      `created_at.lt."${cursor.createdAt}",and(created_at.eq."${cursor.createdAt}",id.lt.${cursor.id})`,
    );
  }
  const { data, error, status } = await query
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(limit + 1);
  if (error) return { data: null, error, status };
  const rows = (data as unknown as SummaryRow[]).map(toSummary);
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return {
    data: { rows: page, next: more && last ? { createdAt: last.created_at, id: last.id } : null },
    error: null,
  };
}

/** A new draft named "Untitled campaign" (editors and up); answers its id. */
export async function createDraft(
  client: Client,
  name = NEW_CAMPAIGN_NAME,
): Promise<{ ok: true; id: string } | { ok: false; message: string }> {
  const { data, error, status } = await client
    .from('campaigns')
    .insert({ name })
    .select('id')
    .single();
  if (error) return { ok: false, message: toQueryError(error, status).message };
  return { ok: true, id: data.id };
}

/** Who may delete what (the RLS policy): editors drafts, admins also sent and cancelled ones. */
export function canDeleteCampaign(status: string, isEditor: boolean, isAdmin: boolean): boolean {
  if (status === 'draft') return isEditor;
  return isAdmin && (status === 'sent' || status === 'cancelled');
}

export async function deleteCampaign(
  client: Client,
  id: string,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const { data, error, status } = await client.from('campaigns').delete().eq('id', id).select('id');
  if (error) return { ok: false, message: toQueryError(error, status).message };
  // RLS hides a refused delete: no error, no row (e.g. the draft was sent meanwhile).
  if (!data?.length) {
    return {
      ok: false,
      message:
        'This campaign could not be deleted: it is gone, it is no longer a draft, or you may not delete it.',
    };
  }
  return { ok: true };
}

/** Where a campaign's row leads: the editor while a draft, else its report. */
export function campaignHref(campaign: { id: string; status: string }): string {
  return campaign.status === 'draft' || campaign.status === 'scheduled'
    ? `/admin/campaigns/edit/?id=${encodeURIComponent(campaign.id)}`
    : `/admin/campaigns/report/?id=${encodeURIComponent(campaign.id)}`;
}
