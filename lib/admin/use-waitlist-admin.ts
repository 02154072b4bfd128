// Hooks of /admin/waitlists/: a page of a waitlist in rank order (waitlist_ranking), refreshed
// whenever the public `waitlist:<slug>` topic announces that places moved, and Let in
// (let_in_from_waitlist, admins and owners).
import { useCallback, useEffect, useState } from 'react';
import { mutate } from 'swr';
import { supabase } from '../supabase';
import { queryKey, toQueryError, unwrap, useQuery } from '../use-query';
import { revalidateLists } from './use-lists';

export const WAITLIST_PAGE_SIZE = 50;
/** SPEC §10: one Let in moves at most this many people. */
export const LET_IN_MAX = 10_000;

export interface RankedMember {
  place: number;
  subscriber_id: string;
  email: string;
  name: string;
  referrals: number;
  joined_at: string;
}

export interface RankingPage {
  rows: RankedMember[];
  /** Everyone in line. */
  total: number;
  /** Those the search leaves (the total without a search). */
  matches: number;
}

const rankingKey = (listId: string, search: string, page: number) =>
  queryKey('admin/waitlists', { list: listId, page: String(page), search });

export function useWaitlistRanking(
  list: { id: string; slug: string } | null,
  search: string,
  page: number,
) {
  const result = useQuery<RankingPage>(
    list ? rankingKey(list.id, search, page) : null,
    async () => {
      const rows = unwrap(
        await supabase.rpc('waitlist_ranking', {
          p_list: list!.id,
          p_search: search || undefined,
          p_limit: WAITLIST_PAGE_SIZE,
          p_offset: page * WAITLIST_PAGE_SIZE,
        }),
      );
      const first = rows?.[0];
      return {
        data: {
          rows: (rows ?? []).map((r) => ({ ...r, place: Number(r.place) })),
          total: Number(first?.total ?? 0),
          matches: Number(first?.matches ?? 0),
        },
        error: null,
      };
    },
  );
  const { mutate: refresh } = result;
  const slug = list?.slug ?? null;
  useEffect(() => {
    if (!slug) return;
    const channel = supabase
      .channel(`waitlist:${slug}`)
      .on('broadcast', { event: 'positions' }, () => void refresh())
      .subscribe();
    return () => {
      void supabase.removeChannel(channel);
    };
  }, [slug, refresh]);
  return result;
}

export type LetInWho = { top: number } | { subscribers: string[] };
/** Emails a Let in prepares or sends: the access email's draft, the target list's welcome (its automation). */
export interface LetInEmails {
  accessEmail: boolean;
  welcome: boolean;
}
export type LetInOutcome =
  | {
      ok: true;
      count: number;
      campaignId: string | null;
      /** How many the Let in enrolled in the target list's welcome automation. */
      welcomeEnrolled: number;
    }
  | { ok: false; message: string };

export function useLetIn() {
  const [pending, setPending] = useState(false);
  const letIn = useCallback(
    async (
      listId: string,
      targetId: string,
      who: LetInWho,
      emails: LetInEmails = { accessEmail: false, welcome: false },
    ): Promise<LetInOutcome> => {
      setPending(true);
      try {
        const res = await supabase.rpc('let_in_from_waitlist', {
          p_list: listId,
          p_target: targetId,
          ...('top' in who ? { p_top: who.top } : { p_subscribers: who.subscribers }),
          p_access_email: emails.accessEmail,
          p_welcome: emails.welcome,
        });
        if (res.error) return { ok: false, message: toQueryError(res.error, res.status).message };
        const data = res.data as {
          let_in?: number;
          campaign_id?: string | null;
          welcome_enrolled?: number;
        } | null;
        await Promise.all([
          mutate((key) => typeof key === 'string' && key.startsWith('admin/waitlists')),
          revalidateLists().catch(() => undefined),
        ]);
        return {
          ok: true,
          count: data?.let_in ?? 0,
          campaignId: data?.campaign_id ?? null,
          welcomeEnrolled: data?.welcome_enrolled ?? 0,
        };
      } finally {
        setPending(false);
      }
    },
    [],
  );
  return { letIn, pending };
}
