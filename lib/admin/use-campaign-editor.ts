// Hooks of the campaign editor: the campaign kept live through Realtime (status and counters move
// while it sends) and send-campaign's actions, each refreshing what they change.
import { useCallback, useEffect, useRef } from 'react';
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
import { concerns, listenTeam } from '../realtime/team-channel';

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
 * `{data: {campaign, listIds} | null (not found), error, mutate}`; read again when team:campaigns
 * says the row changed (another member's edit, a send moving its status) or was deleted.
 */
export function useCampaign(id: string | null) {
  const query = useQuery(id ? campaignKey(id) : null, () => loadCampaign(supabase, id!), {
    revalidateOnFocus: false,
  });
  useEffect(() => {
    if (!id) return;
    const stop = listenTeam('team:campaigns', {
      onMessage: (message) => {
        if (message.payload.op !== 'insert' && concerns(message, id)) void mutate(campaignKey(id));
      },
      onJoin: () => void mutate(campaignKey(id)),
    });
    return stop;
  }, [id]);
  return query;
}

const idNow = (id: string | (() => string | null)) => (typeof id === 'function' ? id() : id) ?? '';

/**
 * The actions of one campaign. `id` may be read at call time: a new campaign gets its id from the
 * save that runs just before its first action.
 */
export function useCampaignActions(id: string | (() => string | null)) {
  const idRef = useRef(id);
  idRef.current = id;
  const run = useCallback(async (action: CampaignAction, at?: string) => {
    const result = await runCampaignAction(supabase, idNow(idRef.current), action, at);
    if (result.ok) {
      await storeCampaignRow(result.campaign);
      await revalidateCampaignLists().catch(() => undefined);
    }
    return result;
  }, []);
  const test = useCallback(
    (emails: string[]) => sendTest(supabase, idNow(idRef.current), emails),
    [],
  );
  return { run, test };
}
