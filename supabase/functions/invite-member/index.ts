// invite-member (SPEC §6, §7): the owner adds someone to the team. A new address, or an account
// that never confirmed, gets Supabase Auth's invite (its link signs them in at /auth/callback/); a
// confirmed account is added at once and told by email. `resend` mails an open invite again and
// `revoke` withdraws it (open-invite.ts).
import { logoUrl } from '../../../lib/email-render/branding.ts';
import { adminClient, callerOf, rpc } from '../_shared/db.ts';
import { env } from '../_shared/env.ts';
import { AppError } from '../_shared/errors.ts';
import { json, readJsonObject, serve } from '../_shared/http.ts';
import { sendInBackground, type MailSettings } from '../_shared/subscriber-mail.ts';
import { parseTeamAction } from './input.ts';
import { addedToTeamMail } from './notice-mail.ts';
import { openInvite, revokeInvite, sendInvite } from './open-invite.ts';

interface Member {
  user_id: string;
  email: string;
  role: string;
}

async function isConfirmed(userId: string): Promise<boolean> {
  const { data, error } = await adminClient().auth.admin.getUserById(userId);
  if (error || !data.user) {
    console.error('reading the account failed', error);
    throw new AppError('internal');
  }
  return !!data.user.email_confirmed_at;
}

serve(['POST'], async (req) => {
  const caller = await callerOf(req);
  const { data: me, error } = await adminClient()
    .from('members')
    .select('role')
    .eq('user_id', caller.id)
    .maybeSingle();
  if (error) throw new AppError('internal');
  if (me?.role !== 'owner') throw new AppError('forbidden');

  const action = parseTeamAction(await readJsonObject(req));
  if (action.action !== 'invite') {
    const invitee = await openInvite(action.userId);
    if (action.action === 'revoke') {
      await revokeInvite(invitee);
      return json({ revoked: invitee.user_id });
    }
    await sendInvite(invitee.email, invitee.role, caller.email, invitee.user_id);
    return json({ member: invitee });
  }
  const { email, role } = action;
  const candidate = await rpc<{ user_id: string | null; is_member: boolean }>('member_candidate', {
    p_email: email,
  });
  if (candidate.is_member) throw new AppError('conflict', 'That person is already on the team.');

  const add = (userId: string) =>
    rpc<Member>('add_member', {
      p_user_id: userId,
      p_email: email,
      p_role: role,
      p_invited_by: caller.id,
    });

  // An account that never confirmed (an invite not yet accepted, say) cannot get a sign-in link
  // while sign-ups are closed: Auth would sign it up again. It gets Auth's invite, sent again,
  // like a new address; only a confirmed account is added at once and told by email.
  if (candidate.user_id && (await isConfirmed(candidate.user_id))) {
    const member = await add(candidate.user_id);
    const settings = await adminClient()
      .from('settings')
      .select(
        'site_name, sender_name, sender_email, reply_to, postal_address, accent_color, logo_path',
      )
      .single();
    if (settings.data) {
      const row = settings.data as MailSettings;
      const site = { ...row, logo_url: logoUrl(env.supabaseUrl, row.logo_path) };
      sendInBackground(() => addedToTeamMail(site, email, role, caller.email || null));
    }
    return json({ member });
  }

  const userId = await sendInvite(email, role, caller.email, candidate.user_id);
  return json({ member: await add(userId) });
});
