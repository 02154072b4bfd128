// POST /admin/generate_link for `email_change_new` / `email_change_current` (GoTrue
// adminGenerateLink): the link and code an email change would mail, without mailing them. The
// current address's (secure email change, `double_confirm_changes`) is the change's second link.
import { json, requestedRedirect, str, type AuthContext, type AuthRequest } from '../context.js';
import { AuthError, errors } from '../errors.js';
import { verifyLink } from '../emails.js';
import { createEmailToken } from '../flows.js';
import type { IssuedToken } from '../issued-token.js';
import { generateOtp, tokenHash } from '../otp.js';
import { SQL } from '../queries.js';
import { resolveRedirect } from '../redirect.js';
import { findUserByEmail, isValidEmail, loadUserJson, normalizeEmail } from '../users.js';

/** Upstream's validateEmail: required, then a format check. */
function validEmail(raw: unknown): string {
  const email = normalizeEmail(raw);
  if (!email) throw errors.validation('An email address is required');
  if (!isValidEmail(email)) throw errors.emailInvalid();
  return email;
}

export async function emailChangeLink(
  ctx: AuthContext,
  r: AuthRequest,
  body: Record<string, unknown>,
  type: 'email_change_current' | 'email_change_new',
): Promise<Response> {
  const email = validEmail(body.email);
  const redirectTo = resolveRedirect(ctx.settings, requestedRedirect(r, body));
  const result = await ctx.db.transaction(async (tx) => {
    const user = await findUserByEmail(tx, email);
    if (!user) throw new AuthError(404, 'user_not_found', 'User with this email not found');
    if (type === 'email_change_current' && !ctx.settings.doubleConfirmChanges) {
      throw errors.validation('Enable secure email change to generate link for current email');
    }
    const newEmail = validEmail(str(body.new_email) ?? '');
    const other = await findUserByEmail(tx, newEmail);
    if (other && other.id !== user.id) throw errors.emailExists();
    if (type === 'email_change_current') {
      // The current address's token of a secure email change (its code hashed with the current
      // address); the change is pending on the new address, and the new one's token is kept.
      const otp = generateOtp(ctx.settings.otpLength);
      const hashed = tokenHash(user.email ?? email, otp);
      await tx.query(SQL['set-email-change'], [
        user.id,
        newEmail,
        user.email_change_token_new ?? '',
      ]);
      await tx.query(SQL['set-email-change-current'], [user.id, hashed]);
      await tx.query(SQL['upsert-one-time-token'], [
        user.id,
        'email_change_token_current',
        hashed,
        user.email ?? email,
      ]);
      const issued: IssuedToken = {
        otp,
        hashedToken: hashed,
        link: verifyLink(ctx.authUrl, hashed, 'email_change', redirectTo),
        redirectTo,
      };
      return { issued, user: (await loadUserJson(tx, user.id))! };
    }
    // The new address's token, as the change's email would carry it; /verify?type=email_change
    // with its link (or the code and the new address) completes the change.
    const issued = await createEmailToken(
      tx,
      ctx,
      user,
      'email_change',
      newEmail,
      redirectTo,
      null,
    );
    return { issued, user: (await loadUserJson(tx, user.id))! };
  });
  return json(r, 200, {
    ...result.user,
    action_link: result.issued.link,
    email_otp: result.issued.otp,
    // Upstream answers the code hashed with the current address here, not the new one the link
    // carries (adminGenerateLink computes hashed_token before the type is looked at).
    hashed_token: tokenHash(email, result.issued.otp),
    redirect_to: result.issued.redirectTo,
    verification_type: type,
  });
}
