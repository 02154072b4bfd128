// The team in the admin (SPEC §2, §6): members with who invited them, the invite-member call and
// its catalogue errors, role changes and removals (the database keeps at least one owner).
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Tables } from '../database.types';
import { checkEmail } from '../email';
import { isRecord, isString, readFunctionResult, type FunctionFailure } from '../functions';
import { ROLES, type Role } from '../roles';
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

export type InvitedMember = Pick<Member, 'user_id' | 'email' | 'role'>;

export type InviteOutcome =
  | { ok: true; member: InvitedMember }
  | { ok: false; field: 'email' | 'role' | null; code: string; message: string };

/** The `member` of invite-member's 200 answer (supabase/functions/README.md), or null. */
export function parseInvitedMember(data: unknown): InvitedMember | null {
  if (!isRecord(data) || !isRecord(data.member)) return null;
  const { user_id, email, role } = data.member;
  if (!isString(user_id) || !isString(email) || !(ROLES as readonly unknown[]).includes(role)) {
    return null;
  }
  return { user_id, email, role: role as Role };
}

/** Which invite field a failure concerns; "already on the team" (409) is about the address. */
export function inviteField(
  failure: Pick<FunctionFailure, 'code' | 'field'>,
): 'email' | 'role' | null {
  if (failure.field === 'role') return 'role';
  if (
    failure.field === 'email' ||
    failure.code === 'invalid_email' ||
    failure.code === 'conflict'
  ) {
    return 'email';
  }
  return null;
}

/** Calls `invite-member` (owner only) after checking the address as the function will. */
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
  const outcome = await readFunctionResult(
    await client.functions.invoke('invite-member', { body: { email: checked.email, role } }),
    parseInvitedMember,
    { notDeployed: 'Invites are not available: the invite-member function is not deployed.' },
  );
  if (outcome.ok) return { ok: true, member: outcome.data };
  return { ok: false, field: inviteField(outcome), code: outcome.code, message: outcome.message };
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
  if (result.error) throw refusal(toQueryError(result.error, result.status));
}

/** Removes a member from the team (owner only); their sign-in stays but opens nothing. */
export async function removeMember(client: SupabaseClient, userId: string): Promise<void> {
  const result = await client
    .from('members')
    .delete()
    .eq('user_id', userId)
    .select('user_id')
    .single();
  if (result.error) throw refusal(toQueryError(result.error, result.status));
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
