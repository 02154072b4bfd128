// invite-member's input (pure, so vitest tests it too): an address (SPEC §5) and a team role.
import { checkEmail } from '../_shared/email.ts';
import { AppError, invalidInput } from '../_shared/errors.ts';

export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export function parseInvite(body: Record<string, unknown>): { email: string; role: Role } {
  const checked = checkEmail(body.email);
  if (!checked.ok) throw new AppError('invalid_email', undefined, { field: 'email' });
  if (!ROLES.includes(body.role as Role)) throw invalidInput('role', `one of ${ROLES.join(', ')}`);
  return { email: checked.email, role: body.role as Role };
}
