// GET /reauthenticate and the nonce it mails, which PUT /user takes for a password change when
// `[auth.email] secure_password_change` is on (GoTrue reauthenticate.go, user.go).
import type { Queryable } from '../../db/types.js';
import { json, type Handler, type AuthContext } from '../context.js';
import { AuthError, errors } from '../errors.js';
import { queueHookEmail } from '../hook-outbox.js';
import { phoneProviderDisabled } from '../phone.js';
import { generateOtp, tokenHash } from '../otp.js';
import { requireUser } from '../principal.js';
import type { UserRow } from '../users.js';

const INVALID_NONCE = 'Nonce has expired or is invalid';

const SET_TOKEN = `update auth.users set reauthentication_token = $2,
  reauthentication_sent_at = $3, updated_at = now() where id = $1`;
const UPSERT_OTT = `
delete from auth.one_time_tokens where user_id = $1 and token_type = 'reauthentication_token';
`;
const INSERT_OTT = `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to)
  values (gen_random_uuid(), $1, 'reauthentication_token', $2, $3)`;

/** GoTrue's default reauthentication email: only the code. */
async function mailNonce(ctx: AuthContext, to: string, otp: string): Promise<void> {
  await ctx.mailer.send({
    to,
    subject: 'Confirm reauthentication',
    text: `Confirm reauthentication\n\nEnter the code: ${otp}\n`,
    html: `<h2>Confirm reauthentication</h2>\n\n<p>Enter the code: ${otp}</p>\n`,
  });
}

export const reauthenticate: Handler = async (ctx, r) => {
  const { user } = await requireUser(r.req, ctx.db);
  if (!user.email && !user.phone) {
    throw errors.validation(
      'Reauthentication requires the user to have an email or a phone number',
    );
  }
  if (!user.email) {
    // A phone-only user: upstream sends the nonce by SMS (reauthenticate.go), which needs a
    // provider the emulator lacks.
    if (!user.phone_confirmed_at) {
      throw new AuthError(422, 'phone_not_confirmed', 'Please verify your phone first.');
    }
    throw phoneProviderDisabled();
  }
  if (!user.email_confirmed_at) {
    throw new AuthError(422, 'email_not_confirmed', 'Please verify your email first.');
  }
  const email = user.email;
  await ctx.db.transaction(async (tx) => {
    const old = (
      await tx.query<{ token: string | null; sent: string | null }>(
        'select reauthentication_token as token, reauthentication_sent_at as sent from auth.users where id = $1',
        [user.id],
      )
    ).rows[0];
    const otp = generateOtp(ctx.settings.otpLength);
    const hashed = tokenHash(email, otp);
    await tx.query(SET_TOKEN, [user.id, hashed, new Date().toISOString()]);
    await tx.query(UPSERT_OTT, [user.id]);
    await tx.query(INSERT_OTT, [user.id, hashed, email]);
    if (ctx.settings.sendEmailHook) {
      // As every other email: the hook sends it once this commits; a failed hook undoes the token.
      const undo = async (q: Queryable) => {
        await q.query(SET_TOKEN, [user.id, old?.token ?? '', old?.sent ?? null]);
        await q.query(UPSERT_OTT, [user.id]);
      };
      const issued = { otp, hashedToken: hashed, link: '', redirectTo: '' };
      await queueHookEmail(tx, ctx, user, 'reauthentication', issued, undo);
    } else {
      await mailNonce(ctx, email, otp);
    }
  });
  return json(r, 200, {});
};

/**
 * A password change under `secure_password_change`: a session older than 24 hours (or none) must
 * bring the nonce mailed by /reauthenticate, which is then used up. Off (the CLI default), the
 * nonce is ignored, as upstream.
 */
export async function checkReauthentication(
  q: Queryable,
  ctx: AuthContext,
  user: UserRow,
  sessionId: string | null,
  nonce: string,
): Promise<void> {
  if (!ctx.settings.securePasswordChange) return;
  const session = sessionId
    ? (
        await q.query<{ fresh: boolean }>(
          `select created_at > now() - interval '24 hours' as fresh from auth.sessions where id = $1`,
          [sessionId],
        )
      ).rows[0]
    : undefined;
  if (session?.fresh) return;
  if (!nonce) {
    throw new AuthError(
      400,
      'reauthentication_needed',
      'Password update requires reauthentication',
    );
  }
  const row = (
    await q.query<{ valid: boolean | null }>(
      `select reauthentication_token <> '' and reauthentication_token = $2
          and reauthentication_sent_at + make_interval(secs => $3) > now() as valid
        from auth.users where id = $1`,
      [user.id, tokenHash(user.email ?? '', nonce), ctx.settings.otpExpiry],
    )
  ).rows[0];
  if (!row?.valid) throw new AuthError(422, 'reauthentication_not_valid', INVALID_NONCE);
  // Used up, with every other one-time token of the user (ConfirmReauthentication).
  await q.query(`update auth.users set reauthentication_token = '' where id = $1`, [user.id]);
  await q.query('delete from auth.one_time_tokens where user_id = $1', [user.id]);
}
