// claim-owner's pure rules (so vitest tests them too): who may claim ownership, and what a request
// asks for.
import { checkEmail } from '../_shared/email.ts';
import { AppError, invalidInput } from '../_shared/errors.ts';

/** The configured owner address, confirmed. */
export function isOwnerClaim(
  user: { email?: string | null; email_confirmed_at?: string | null },
  ownerEmail: string,
): boolean {
  const email = (user.email ?? '').trim().toLowerCase();
  return email !== '' && email === ownerEmail.trim().toLowerCase() && !!user.email_confirmed_at;
}

/**
 * `{}`: the signed-in caller claims ownership. `{action: "prepare", email}`: before the owner's
 * first sign-in, make sure an account exists for the address (sign-ups are closed, so Auth sends
 * a sign-in link only to existing accounts).
 */
export type ClaimRequest = { action: 'claim' } | { action: 'prepare'; email: string };

export function parseClaimRequest(body: Record<string, unknown>): ClaimRequest {
  if (body.action === undefined || body.action === 'claim') return { action: 'claim' };
  if (body.action !== 'prepare') throw invalidInput('action', 'claim or prepare');
  const checked = checkEmail(body.email);
  if (!checked.ok) throw new AppError('invalid_email', undefined, { field: 'email' });
  return { action: 'prepare', email: checked.email };
}
