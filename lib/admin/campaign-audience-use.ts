// Hooks of the campaign editor's segment picker (issue 24): the draft's segments and the live
// recipient count for its lists plus segments.
import { useCallback, useState } from 'react';
import { supabase } from '../supabase';
import { queryKey, toQueryError, useQuery, type QueryError } from '../use-query';
import {
  audienceCount,
  campaignSegments,
  setCampaignSegment,
  type AudienceMode,
  type AudienceSegment,
} from './campaign-audience';

export function useCampaignSegments(campaignId: string | null) {
  return useQuery<AudienceSegment[]>(
    campaignId ? queryKey('admin/campaigns/segments', { id: campaignId }) : null,
    async () => ({ data: await campaignSegments(supabase, campaignId!), error: null }),
  );
}

export function useAudienceCount(listIds: string[], segments: AudienceSegment[] | undefined) {
  const key =
    segments && segments.length > 0 && listIds.length > 0
      ? queryKey('admin/campaigns/audience', {
          lists: [...listIds].sort().join(','),
          segments: segments
            .map((s) => `${s.mode}:${s.segmentId}`)
            .sort()
            .join(','),
        })
      : null;
  return useQuery<number>(
    key,
    async () => ({ data: await audienceCount(supabase, listIds, segments ?? []), error: null }),
    { keepPreviousData: true },
  );
}

/** A count as the editor shows it: the number, or none yet, and whether it is being read again. */
export interface AudienceCountState {
  data?: number | null;
  error?: Error;
  isValidating: boolean;
}

/**
 * The number a send of this draft goes to, as the send confirmation names it: the lists' count
 * (`listCount`) while the draft has no segments, the lists-plus-segments count once it has some,
 * and "not known yet" while its segments are still being read.
 */
export function useSendCount(
  campaignId: string | null,
  listIds: string[],
  listCount: AudienceCountState,
): AudienceCountState {
  const chosen = useCampaignSegments(campaignId);
  const audience = useAudienceCount(listIds, chosen.data ?? undefined);
  if (!campaignId || listIds.length === 0) return listCount;
  if (chosen.data === undefined) {
    return chosen.error ? { error: chosen.error, isValidating: false } : { isValidating: true };
  }
  if (chosen.data === null || chosen.data.length === 0) return listCount;
  return { data: audience.data, error: audience.error, isValidating: audience.isValidating };
}

export function useSetCampaignSegment(campaignId: string | null, onDone: () => unknown) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<QueryError | null>(null);
  const run = useCallback(
    async (segmentId: string, mode: AudienceMode | null) => {
      if (!campaignId) return;
      setPending(true);
      setError(null);
      try {
        await setCampaignSegment(supabase, campaignId, segmentId, mode);
      } catch (e) {
        setError(toQueryError(e));
      } finally {
        setPending(false);
        await onDone();
      }
    },
    [campaignId, onDone],
  );
  return { run, pending, error };
}
