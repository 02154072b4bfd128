// The signed-in user's `members` row and role. A signed-in user without one calls `claim-owner`
// once (the POSTBOX_OWNER_EMAIL address becomes owner on first sign-in; anyone else gets 403).
import type { Session } from '@supabase/supabase-js';
import type { Tables } from './database.types';
import type { Role } from './roles';
import { supabase } from './supabase';
import { queryKey, QueryError, useQuery, type SupabaseResult } from './use-query';
import { useSession } from './use-session';

export type Member = Tables<'members'>;

export type MemberState =
  | { status: 'loading'; session: Session | null; member: null; role: null; error: null }
  | { status: 'signed-out'; session: null; member: null; role: null; error: null }
  | { status: 'no-access'; session: Session; member: null; role: null; error: null }
  | { status: 'member'; session: Session; member: Member; role: Role; error: null }
  | {
      status: 'error';
      session: Session;
      member: null;
      role: null;
      error: QueryError;
      retry: () => void;
    };

/** Users whose claim was refused in this tab: revalidations (focus, reconnect) do not ask again. */
const refused = new Set<string>();

export function memberKey(userId: string): string {
  return queryKey('members/me', { user: userId });
}

async function readMember(userId: string): Promise<SupabaseResult<Member | null>> {
  const read = () => supabase.from('members').select('*').eq('user_id', userId).maybeSingle();
  const first = await read();
  if (first.error || first.data || refused.has(userId)) return first;
  const claim = await supabase.functions.invoke('claim-owner', { body: {} });
  if (claim.error) {
    const status = (claim.error as { context?: Response }).context?.status;
    if (status === 403) {
      refused.add(userId);
      return { data: null, error: null };
    }
    return { data: null, error: await claimError(claim.error) };
  }
  return read();
}

/** The catalogue message of a failed function call (SPEC §8), else supabase-js's own. */
async function claimError(error: unknown): Promise<QueryError> {
  const context = (error as { context?: Response }).context;
  if (context && typeof context.json === 'function') {
    try {
      const body = (await context.clone().json()) as {
        error?: { code?: string; message?: string };
      };
      if (body.error?.message) {
        return new QueryError(body.error.message, {
          code: body.error.code,
          status: context.status,
        });
      }
    } catch {
      // not JSON: fall through to the generic message
    }
    return new QueryError('We could not check your access. Try again.', {
      status: context.status,
    });
  }
  return new QueryError('We could not reach the server. Check your connection and try again.');
}

export function useMember(): MemberState {
  const session = useSession();
  const userId = session.status === 'signed-in' ? session.session.user.id : null;
  const query = useQuery(userId ? memberKey(userId) : null, () => readMember(userId as string), {
    revalidateOnFocus: false,
  });

  if (session.status === 'loading') {
    return { status: 'loading', session: null, member: null, role: null, error: null };
  }
  if (session.status === 'signed-out') {
    return { status: 'signed-out', session: null, member: null, role: null, error: null };
  }
  const signedIn = session.session;
  if (query.error) {
    return {
      status: 'error',
      session: signedIn,
      member: null,
      role: null,
      error: query.error,
      retry: () => void query.mutate(),
    };
  }
  if (query.data === undefined) {
    return { status: 'loading', session: signedIn, member: null, role: null, error: null };
  }
  if (query.data === null) {
    return { status: 'no-access', session: signedIn, member: null, role: null, error: null };
  }
  return {
    status: 'member',
    session: signedIn,
    member: query.data,
    role: query.data.role as Role,
    error: null,
  };
}
