// Hooks of the team section of the settings page: members, invite, role change and removal, each
// revalidating the team afterwards.
import { useCallback, useState } from 'react';
import { mutate } from 'swr';
import type { Role } from '../roles';
import { supabase } from '../supabase';
import { queryKey, toQueryError, useQuery, type QueryError } from '../use-query';
import {
  changeRole,
  inviteMember,
  listMembers,
  removeMember,
  type InviteOutcome,
  type TeamMember,
} from './members';

export const MEMBERS_KEY = queryKey('admin/members');

export function useMembers() {
  return useQuery<TeamMember[]>(MEMBERS_KEY, async () => ({
    data: await listMembers(supabase),
    error: null,
  }));
}

export function useInviteMember() {
  const [pending, setPending] = useState(false);
  const invite = useCallback(async (email: string, role: Role): Promise<InviteOutcome> => {
    setPending(true);
    try {
      const outcome = await inviteMember(supabase, email, role);
      if (outcome.ok) await mutate(MEMBERS_KEY);
      return outcome;
    } finally {
      setPending(false);
    }
  }, []);
  return { invite, pending };
}

/** Role changes and removals: which member is being changed, and the error to show on that row. */
export function useMemberWrites() {
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [error, setError] = useState<{ userId: string; error: QueryError } | null>(null);
  const run = useCallback(async (userId: string, write: () => Promise<void>) => {
    setPendingId(userId);
    setError(null);
    try {
      await write();
      return true;
    } catch (err) {
      setError({ userId, error: toQueryError(err) });
      return false;
    } finally {
      setPendingId(null);
      await mutate(MEMBERS_KEY);
    }
  }, []);
  const setRole = useCallback(
    (userId: string, role: Role) => run(userId, () => changeRole(supabase, userId, role)),
    [run],
  );
  const remove = useCallback(
    (userId: string) => run(userId, () => removeMember(supabase, userId)),
    [run],
  );
  return { setRole, remove, pendingId, error };
}
