// Open invites on the team card (issue 23): which members have never signed in (team_sign_ins,
// members only), read again live when an invitee first signs in (the private `team:members`
// topic), and the owner's resend and revoke through invite-member.
import { useCallback, useEffect, useState } from 'react';
import { mutate } from 'swr';
import { isRecord } from '../functions';
import { listenTeam } from '../realtime/team-channel';
import { readFunctionResult } from '../functions';
import { supabase } from '../supabase';
import { queryKey, unwrap, useQuery } from '../use-query';
import { MEMBERS_KEY } from './use-members';

const isSignInsKey = (key: unknown) =>
  typeof key === 'string' && key.startsWith('admin/team-sign-ins');

/**
 * The user ids of members whose invite is still open (never signed in nor confirmed). Keyed by
 * the team's member ids, so a new invite or a removal is read at once.
 */
export function useInvitedIds(memberIds: string[] | null) {
  const key = memberIds ? queryKey('admin/team-sign-ins', { ids: memberIds.join(',') }) : null;
  useEffect(() => {
    if (!key) return;
    // A first sign-in changes no members row: only this topic says so. On (re)join too, since a
    // sign-in while the socket was down sent this tab nothing.
    const refresh = () => void mutate(key);
    return listenTeam('team:members', { onMessage: refresh, onJoin: refresh });
  }, [key]);
  return useQuery<Set<string>>(key, async () => {
    const rows = unwrap(await supabase.rpc('team_sign_ins')) as
      { user_id: string; invited: boolean }[] | null;
    return {
      data: new Set((rows ?? []).filter((r) => r.invited).map((r) => r.user_id)),
      error: null,
    };
  });
}

export type InviteAction = 'resend' | 'revoke';

/** Resend or revoke, one member at a time; the outcome's message is shown on the card. */
export function useOpenInvites() {
  const [pendingId, setPendingId] = useState<string | null>(null);
  const run = useCallback(
    async (action: InviteAction, userId: string): Promise<{ ok: boolean; message?: string }> => {
      setPendingId(userId);
      try {
        const outcome = await readFunctionResult(
          await supabase.functions.invoke('invite-member', { body: { action, user_id: userId } }),
          (data) => (isRecord(data) ? data : null),
        );
        return outcome.ok ? { ok: true } : { ok: false, message: outcome.message };
      } finally {
        setPendingId(null);
        await Promise.all([mutate(MEMBERS_KEY), mutate(isSignInsKey)]);
      }
    },
    [],
  );
  return { run, pendingId };
}
