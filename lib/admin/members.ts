// The team in the admin (SPEC §2, §6): members with who invited them, the invite-member call and
// its catalogue errors, role changes and removals (the database keeps at least one owner).
import {
  FunctionsFetchError,
  FunctionsHttpError,
  FunctionsRelayError,
  type SupabaseClient,
} from '@supabase/supabase-js';
import type { Tables } from '../database.types';
import { checkEmail } from '../email';
import type { Role } from '../roles';
import { QueryError, toQueryError, unwrap } from '../use-query';

export type Member = Tables<'members'> & { role: Role };

export interface TeamMember extends Member {
  /** The inviter's address while they are still on the team, else null. */
  invitedByEmail: string | null;
}

/** Members oldest first, each with the address of whoever invited them. */
export function withInviters(members: Member[]): TeamMember[] {
  const emails = new Map(members.map((m) => [m.user_id, m.email]));
  return [...members]
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.email.localeCompare(b.email))
    .map((m) => ({
      ...m,
      invitedByEmail: m.invited_by ? (emails.get(m.invited_by) ?? null) : null,
    }));
}

export async function listMembers(client: SupabaseClient): Promise<TeamMember[]> {
  const rows = unwrap(
    await client
      .from('members')
      .select('user_id,email,role,invited_by,created_at')
      .order('created_at'),
  ) as Member[] | null;
  return withInviters(rows ?? []);
}

/** How many owners there are; the UI warns before the database refuses removing the last one. */
export function ownerCount(members: Pick<Member, 'role'>[]): number {
  return members.filter((m) => m.role === 'owner').length;
}

export type InviteOutcome =
  | { ok: true; member: Pick<Member, 'user_id' | 'email' | 'role'> }
  | { ok: false; field: 'email' | 'role' | null; code: string; message: string };

const UNREACHABLE = 'We could not reach the invite service. Check your connection and try again.';
const INTERNAL = 'Something went wrong. Nothing was changed.';

/** Reads a `supabase.functions.invoke` failure as the catalogue error it carries (SPEC §8). */
export async function readFunctionError(
  error: unknown,
  response?: Response,
): Promise<{ code: string; message: string; field: string | null }> {
  if (error instanceof FunctionsFetchError) {
    return { code: 'unreachable', message: UNREACHABLE, field: null };
  }
  if (error instanceof FunctionsHttpError || error instanceof FunctionsRelayError) {
    const res = response ?? (error.context as Response | undefined);
    try {
      const body = (await res?.clone().json()) as {
        error?: { code?: unknown; message?: unknown; field?: unknown };
      };
      const { code, message, field } = body?.error ?? {};
      if (typeof code === 'string' && typeof message === 'string' && message) {
        return { code, message, field: typeof field === 'string' ? field : null };
      }
    } catch {
      // Not our JSON shape (e.g. the platform's own 404 when the function is not deployed).
    }
    if (res?.status === 404) {
      return {
        code: 'not_found',
        message: 'The invite-member function is not deployed.',
        field: null,
      };
    }
  }
  return { code: 'internal', message: INTERNAL, field: null };
}

/** Calls `invite-member` (owner only; supabase/functions/README.md) after checking the address. */
export async function inviteMember(
  client: SupabaseClient,
  email: string,
  role: Role,
): Promise<InviteOutcome> {
  const checked = checkEmail(email);
  if (!checked.ok) {
    return {
      ok: false,
      field: 'email',
      code: 'invalid_email',
      message: 'Enter a valid email address.',
    };
  }
  const { data, error, response } = await client.functions.invoke('invite-member', {
    body: { email: checked.email, role },
  });
  if (!error) {
    const member = (data as { member?: Pick<Member, 'user_id' | 'email' | 'role'> } | null)?.member;
    if (member && typeof member.user_id === 'string') return { ok: true, member };
    return { ok: false, field: null, code: 'internal', message: INTERNAL };
  }
  const known = await readFunctionError(error, response);
  // A conflict is "already a member": about the address, so it shows under the email field.
  const aboutEmail =
    known.field === 'email' || known.code === 'invalid_email' || known.code === 'conflict';
  const field = known.field === 'role' ? 'role' : aboutEmail ? 'email' : null;
  return { ok: false, field, code: known.code, message: known.message };
}

/** Changes a member's role (owner only). The last owner's demotion is refused with 23514. */
export async function changeRole(
  client: SupabaseClient,
  userId: string,
  role: Role,
): Promise<void> {
  const result = await client
    .from('members')
    .update({ role })
    .eq('user_id', userId)
    .select('user_id')
    .single();
  if (result.error) throw refusal(toQueryError(result.error));
}

/** Removes a member from the team (owner only); their sign-in stays but opens nothing. */
export async function removeMember(client: SupabaseClient, userId: string): Promise<void> {
  const result = await client
    .from('members')
    .delete()
    .eq('user_id', userId)
    .select('user_id')
    .single();
  if (result.error) throw refusal(toQueryError(result.error));
}

/** "No row" after RLS means the caller may not do it; other errors keep the database's message. */
function refusal(error: QueryError): QueryError {
  if (error.code === 'PGRST116') {
    return new QueryError('You do not have permission to do that.', {
      code: 'forbidden',
      details: error,
    });
  }
  return error;
}
