// Hooks of /admin/campaigns/ and the dashboard: pages of campaigns by status, a live subscription
// to changes of `campaigns` (the private topic team:campaigns), new draft, duplicate and delete.
import { useCallback, useEffect, useState } from 'react';
import { mutate } from 'swr';
import { supabase } from '../supabase';
import { queryKey, useQuery } from '../use-query';
import { debounced, listenTeam } from '../realtime/team-channel';
import type { LiveStatus } from './live-channel';
import { duplicateCampaign } from './campaign-editor';
import {
  createDraft,
  deleteCampaign,
  listCampaigns,
  type CampaignCursor,
  type CampaignFilter,
} from './campaigns';

const REFRESH_DELAY_MS = 300;

export function campaignsKey(
  filter: CampaignFilter,
  cursor: CampaignCursor | null,
  limit?: number,
): string {
  return queryKey('admin/campaigns', {
    filter,
    at: cursor ? `${cursor.createdAt}|${cursor.id}` : undefined,
    limit,
  });
}

/** Every campaign key (list pages, dashboard card, reports) refreshes after a change. */
export function revalidateCampaigns(): Promise<unknown> {
  return mutate((key) => typeof key === 'string' && key.startsWith('admin/campaigns'));
}

export function useCampaigns(
  filter: CampaignFilter,
  cursor: CampaignCursor | null,
  limit?: number,
) {
  return useQuery(
    campaignsKey(filter, cursor, limit),
    () => listCampaigns(supabase, filter, cursor, limit),
    { keepPreviousData: true },
  );
}

/**
 * Re-reads every campaign view whenever a campaign row is inserted, updated or deleted (a send
 * moves status and counters) and each time the channel is joined; the channel is removed on
 * unmount. `onChange` is optional extra work.
 */
export function useCampaignChanges(onChange?: () => void): LiveStatus {
  const [status, setStatus] = useState<LiveStatus>('connecting');
  useEffect(() => {
    // A send moves counters every batch: one re-read per burst.
    const changed = debounced(() => {
      void revalidateCampaigns();
      onChange?.();
    }, REFRESH_DELAY_MS);
    const stop = listenTeam('team:campaigns', {
      onMessage: changed,
      onJoin: () => void revalidateCampaigns(),
      onStatus: setStatus,
    });
    return () => {
      stop();
      changed.cancel();
    };
  }, [onChange]);
  return status;
}

export function useCampaignWrites() {
  const create = useCallback(async () => {
    const result = await createDraft(supabase);
    if (result.ok) await revalidateCampaigns().catch(() => undefined);
    return result;
  }, []);
  const duplicate = useCallback(async (id: string) => {
    const result = await duplicateCampaign(supabase, id);
    if (result.ok) await revalidateCampaigns().catch(() => undefined);
    return result;
  }, []);
  const remove = useCallback(async (id: string) => {
    const result = await deleteCampaign(supabase, id);
    if (result.ok) await revalidateCampaigns().catch(() => undefined);
    return result;
  }, []);
  return { create, duplicate, remove };
}
