// invite-member's input (pure, so vitest tests it too): an invite (an address, SPEC §5, and a team
// role), or `resend` / `revoke` of an open invite, naming the invitee's user id.
import { checkEmail } from '../_shared/email.ts';
import { AppError, invalidInput } from '../_shared/errors.ts';
import { isUuid } from '../../../lib/uuid.ts';

export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export type TeamAction =
  { action: 'invite'; email: string; role: Role } | { action: 'resend' | 'revoke'; userId: string };

export function parseInvite(body: Record<string, unknown>): { email: string; role: Role } {
  const checked = checkEmail(body.email);
  if (!checked.ok) throw new AppError('invalid_email', undefined, { field: 'email' });
  if (!ROLES.includes(body.role as Role)) throw invalidInput('role', `one of ${ROLES.join(', ')}`);
  return { email: checked.email, role: body.role as Role };
}

export function parseTeamAction(body: Record<string, unknown>): TeamAction {
  const action = body.action ?? 'invite';
  if (action === 'invite') return { action, ...parseInvite(body) };
  if (action !== 'resend' && action !== 'revoke') {
    throw invalidInput('action', 'one of invite, resend, revoke');
  }
  if (!isUuid(body.user_id)) throw invalidInput('user_id', "the invitee's user id");
  return { action, userId: body.user_id };
}
