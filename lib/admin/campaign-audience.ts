// Campaign audiences beyond lists (issue 24): the segments a draft includes (narrowing its lists)
// or excludes, written straight to campaign_segments (RLS: editors, drafts only), and the live
// count of recipients for lists plus segments (campaign_audience_count, the set a send fixes).
import type { SupabaseClient } from '@supabase/supabase-js';
import { toQueryError } from '../use-query';

export type AudienceMode = 'include' | 'exclude';

export interface AudienceSegment {
  segmentId: string;
  mode: AudienceMode;
}

function fail(error: unknown, status: number): never {
  throw toQueryError(error, status);
}

export async function campaignSegments(
  client: SupabaseClient,
  campaignId: string,
): Promise<AudienceSegment[]> {
  const { data, error, status } = await client
    .from('campaign_segments')
    .select('segment_id,mode')
    .eq('campaign_id', campaignId);
  if (error) fail(error, status);
  return ((data ?? []) as Array<{ segment_id: string; mode: AudienceMode }>).map((r) => ({
    segmentId: r.segment_id,
    mode: r.mode,
  }));
}

/** Includes or excludes a segment (one mode per segment: choosing the other mode moves it). */
export async function setCampaignSegment(
  client: SupabaseClient,
  campaignId: string,
  segmentId: string,
  mode: AudienceMode | null,
): Promise<void> {
  const gone = await client
    .from('campaign_segments')
    .delete()
    .eq('campaign_id', campaignId)
    .eq('segment_id', segmentId);
  if (gone.error) fail(gone.error, gone.status);
  if (mode === null) return;
  const { error, status } = await client
    .from('campaign_segments')
    .insert({ campaign_id: campaignId, segment_id: segmentId, mode });
  if (error) fail(error, status);
}

export async function audienceCount(
  client: SupabaseClient,
  listIds: string[],
  segments: AudienceSegment[],
): Promise<number> {
  const { data, error, status } = await client.rpc('campaign_audience_count', {
    p_list_ids: listIds,
    p_include: segments.filter((s) => s.mode === 'include').map((s) => s.segmentId),
    p_exclude: segments.filter((s) => s.mode === 'exclude').map((s) => s.segmentId),
  });
  if (error) fail(error, status);
  return Number(data ?? 0);
}

/** The sentence under the picker, e.g. "312 recipients: lists, in VIPs, not in Churned". */
export function audienceSummary(
  count: number,
  segments: AudienceSegment[],
  names: ReadonlyMap<string, string>,
): string {
  const who = `${count.toLocaleString('en')} ${count === 1 ? 'recipient' : 'recipients'}`;
  const named = (mode: AudienceMode) =>
    segments.filter((s) => s.mode === mode).map((s) => names.get(s.segmentId) ?? 'a segment');
  const parts = [];
  const include = named('include');
  const exclude = named('exclude');
  if (include.length) parts.push(`only those in ${include.join(' or ')}`);
  if (exclude.length) parts.push(`leaving out ${exclude.join(' and ')}`);
  return parts.length ? `${who} with segments: ${parts.join(', ')}.` : `${who}.`;
}
