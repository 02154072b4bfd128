// Hooks of /admin/campaigns/report/: the campaign and its numbers (live while it sends: Realtime on
// its row, the channel removed on unmount), the delivery log pages, and the admin's retry.
import { useCallback, useEffect, useState } from 'react';
import { mutate } from 'swr';
import { invokeFunction } from '../invoke';
import { supabase } from '../supabase';
import { queryKey, useQuery } from '../use-query';
import {
  getCampaignReport,
  getReportCampaign,
  listDeliveries,
  parseRetry,
  type DeliveryStatus,
} from './campaign-report';
import { concerns, debounced, listenTeam } from '../realtime/team-channel';
import type { LiveStatus } from './live-channel';
import { revalidateCampaigns } from './use-campaigns';

const ACTIVE = new Set(['sending', 'paused']);

export function reportKeys(id: string) {
  return {
    campaign: queryKey('admin/campaigns/report/campaign', { id }),
    numbers: queryKey('admin/campaigns/report/numbers', { id }),
  };
}

export function deliveriesKey(id: string, status: DeliveryStatus | null, after: string | null) {
  return queryKey('admin/campaigns/report/deliveries', {
    id,
    status: status ?? undefined,
    after: after ?? undefined,
  });
}

/**
 * The campaign row; re-read every few seconds as well while it sends. Its Realtime channel only
 * exists while the campaign sends, so a short send (a retry of three) can finish before the channel
 * is joined, and no event would ever bring the final status.
 */
export function useReportCampaign(id: string | null) {
  return useQuery(id ? reportKeys(id).campaign : null, () => getReportCampaign(supabase, id!), {
    refreshInterval: (campaign) => (campaign && ACTIVE.has(campaign.status) ? 5000 : 0),
  });
}

/** The numbers; re-read every few seconds as well while the campaign sends (a missed event). */
export function useCampaignReport(id: string | null, status: string | undefined) {
  return useQuery(id ? reportKeys(id).numbers : null, () => getCampaignReport(supabase, id!), {
    refreshInterval: status && ACTIVE.has(status) ? 5000 : 0,
  });
}

export function useDeliveries(
  id: string | null,
  status: DeliveryStatus | null,
  after: string | null,
) {
  return useQuery(
    id ? deliveriesKey(id, status, after) : null,
    () => listDeliveries(supabase, id!, status, after),
    { keepPreviousData: true },
  );
}

/** A send moves the counters every batch: the report is read again at most this often. */
const REPORT_DELAY_MS = 300;

/** Every view of one campaign's report refreshes (the row changed or a retry was made). */
function revalidateReport(id: string): Promise<unknown> {
  return mutate(
    (key) =>
      typeof key === 'string' &&
      key.startsWith('admin/campaigns/report/') &&
      key.includes(`id=${encodeURIComponent(id)}`),
  );
}

/** team:campaigns names this campaign: status and counters move while it sends. */
export function useLiveReport(id: string | null): LiveStatus {
  const [status, setStatus] = useState<LiveStatus>('connecting');
  useEffect(() => {
    if (!id) return;
    const changed = debounced(() => void revalidateReport(id), REPORT_DELAY_MS);
    const stop = listenTeam('team:campaigns', {
      onMessage: (message) => {
        if (concerns(message, id)) changed();
      },
      onJoin: () => void revalidateReport(id),
      onStatus: setStatus,
    });
    return () => {
      stop();
      changed.cancel();
    };
  }, [id]);
  return status;
}

export type RetryOutcome = { ok: true; retried: number } | { ok: false; message: string };

/** send-campaign `retry` (admin and up): failed deliveries back to the queue. */
export function useRetryFailed(id: string | null) {
  const [pending, setPending] = useState(false);
  const retry = useCallback(async (): Promise<RetryOutcome> => {
    if (!id) return { ok: false, message: 'No campaign.' };
    setPending(true);
    try {
      // The team's client: the retry is sent with the member's session.
      const outcome = await invokeFunction(
        'send-campaign',
        parseRetry,
        { body: { campaign_id: id, action: 'retry' } },
        undefined,
        supabase.functions,
      );
      await Promise.all([revalidateReport(id), revalidateCampaigns()]).catch(() => undefined);
      return outcome.ok
        ? { ok: true, retried: outcome.data.retried }
        : { ok: false, message: outcome.message };
    } finally {
      setPending(false);
    }
  }, [id]);
  return { retry, pending };
}
