// Resend and revoke of an open invite (issue 23): only for a member who has never signed in. A
// revoke removes the members row and deletes the Auth account, which never held anything else.
import { adminClient } from '../_shared/db.ts';
import { env } from '../_shared/env.ts';
import { AppError } from '../_shared/errors.ts';

export interface Invitee {
  user_id: string;
  email: string;
  role: string;
}

/** The member and their account, refused unless the invite is still open (never signed in). */
export async function openInvite(userId: string): Promise<Invitee> {
  const { data: member, error } = await adminClient()
    .from('members')
    .select('user_id, email, role')
    .eq('user_id', userId)
    .maybeSingle();
  if (error) throw new AppError('internal');
  if (!member) throw new AppError('not_found', 'That person is not on the team.');
  const account = await adminClient().auth.admin.getUserById(userId);
  if (account.error || !account.data.user) {
    console.error('reading the account failed', account.error);
    throw new AppError('internal');
  }
  const user = account.data.user;
  if (user.last_sign_in_at || user.email_confirmed_at) {
    throw new AppError('conflict', 'They have signed in already: the invite is used.');
  }
  return member as Invitee;
}

/** Sends Auth's invite to the address, naming the inviter and role in the email (auth-email). */
export async function sendInvite(
  email: string,
  role: string,
  inviterEmail: string | undefined,
  existingUserId: string | null,
): Promise<string> {
  const invitedBy = { invited_by_email: inviterEmail, role };
  // Auth sets the metadata only on a new account, so an account invited before gets it first.
  if (existingUserId) {
    const updated = await adminClient().auth.admin.updateUserById(existingUserId, {
      user_metadata: invitedBy,
    });
    if (updated.error) {
      console.error('updating the invitee failed', updated.error);
      throw new AppError('internal');
    }
  }
  const invited = await adminClient().auth.admin.inviteUserByEmail(email, {
    redirectTo: `${env.siteUrl()}/auth/callback/`,
    data: invitedBy,
  });
  if (invited.error || !invited.data.user) {
    console.error('invite failed', invited.error);
    throw new AppError('internal');
  }
  return invited.data.user.id;
}

export async function revokeInvite(invitee: Invitee): Promise<void> {
  // The row first: if deleting the account failed, the invite no longer opens the admin.
  const removed = await adminClient().from('members').delete().eq('user_id', invitee.user_id);
  if (removed.error) {
    console.error('removing the member failed', removed.error);
    throw new AppError('internal');
  }
  const deleted = await adminClient().auth.admin.deleteUser(invitee.user_id);
  if (deleted.error) {
    console.error('deleting the invited account failed', deleted.error);
    throw new AppError('internal');
  }
}
