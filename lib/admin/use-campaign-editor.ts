// Hooks of the campaign editor: the campaign kept live through Realtime (status and counters move
// while it sends) and send-campaign's actions, each refreshing what they change.
import { useCallback, useEffect } from 'react';
import { mutate } from 'swr';
import { supabase } from '../supabase';
import { queryKey, useQuery } from '../use-query';
import {
  loadCampaign,
  runCampaignAction,
  sendTest,
  type CampaignAction,
  type EditableCampaign,
} from './campaign-editor';
import type { CampaignRow } from './campaign-editor-form';
import { joinLive, uniqueTopic } from './live-channel';

export function campaignKey(id: string): string {
  return queryKey('admin/campaigns/edit', { id });
}

/** Lists of campaigns elsewhere in the admin (the campaigns page, the dashboard) read again. */
function revalidateCampaignLists(): Promise<unknown> {
  return mutate(
    (key) =>
      typeof key === 'string' &&
      (key.startsWith('admin/campaigns') || key.startsWith('admin/dashboard')) &&
      !key.startsWith('admin/campaigns/edit'),
  );
}

/** Puts a newer row of the campaign into the cache without a round trip. */
export function storeCampaignRow(row: CampaignRow): Promise<unknown> {
  return mutate<EditableCampaign | null>(
    campaignKey(row.id),
    (current) => (current ? { ...current, campaign: { ...current.campaign, ...row } } : current),
    { revalidate: false },
  );
}

/**
 * `{data: {campaign, listIds} | null (not found), error, mutate}`; UPDATEs of the row arrive over
 * Realtime (campaigns is in supabase_realtime; RLS lets members hear them) and replace the cached row.
 */
export function useCampaign(id: string | null) {
  const query = useQuery(id ? campaignKey(id) : null, () => loadCampaign(supabase, id!), {
    revalidateOnFocus: false,
  });
  useEffect(() => {
    if (!id) return;
    const channel = joinLive(
      supabase
        .channel(uniqueTopic(`campaign-${id}`))
        .on(
          'postgres_changes',
          { event: 'UPDATE', schema: 'public', table: 'campaigns', filter: `id=eq.${id}` },
          (payload) => void storeCampaignRow(payload.new as CampaignRow),
        )
        .on(
          'postgres_changes',
          { event: 'DELETE', schema: 'public', table: 'campaigns', filter: `id=eq.${id}` },
          () => void mutate(campaignKey(id)),
        ),
      { onJoin: () => void mutate(campaignKey(id)) },
    );
    return () => {
      void supabase.removeChannel(channel);
    };
  }, [id]);
  return query;
}

export function useCampaignActions(id: string) {
  const run = useCallback(
    async (action: CampaignAction, at?: string) => {
      const result = await runCampaignAction(supabase, id, action, at);
      if (result.ok) {
        await storeCampaignRow(result.campaign);
        await revalidateCampaignLists().catch(() => undefined);
      }
      return result;
    },
    [id],
  );
  const test = useCallback((emails: string[]) => sendTest(supabase, id, emails), [id]);
  return { run, test };
}
