// Email token flows shared by signup, OTP, recovery, invite and generate_link: create, mail, verify.
import type { Queryable } from '../db/types.js';
import type { AuthContext } from './context.js';
import { sendAuthEmail, verifyLink, type EmailKind } from './emails.js';
import { queueHookEmail, undoIssue } from './hook-outbox.js';
import { AuthError, errors } from './errors.js';
import { generateOtp, PKCE_PREFIX, stripPkce, tokenHash } from './otp.js';
import { SQL } from './queries.js';
import { isBanned, isoTime, type UserRow } from './users.js';
import type { IssuedToken } from './issued-token.js';

export interface PkceChallenge {
  challenge: string;
  method: 's256' | 'plain';
}

/** Reads `code_challenge`/`code_challenge_method` from a body; both or neither (upstream). */
export function pkceFromBody(body: Record<string, unknown>): PkceChallenge | null {
  const challenge = body.code_challenge;
  const method = body.code_challenge_method;
  if (!challenge && !method) return null;
  if (typeof challenge !== 'string' || typeof method !== 'string' || !challenge) {
    throw errors.validation('PKCE flow requires code_challenge_method and code_challenge');
  }
  const m = method.toLowerCase();
  if (m !== 's256' && m !== 'plain') {
    throw errors.validation('code challenge method not supported');
  }
  if (challenge.length < 43 || challenge.length > 128) {
    throw errors.validation('code challenge has to be between 43 and 128 characters');
  }
  return { challenge, method: m };
}

/** amr method recorded for a session started by verifying each kind of token (models.ParseAuthenticationMethod). */
export const AUTH_METHOD: Record<EmailKind | 'email', string> = {
  signup: 'email/signup',
  invite: 'invite',
  magiclink: 'magiclink',
  recovery: 'recovery',
  email_change: 'email_change',
  email: 'otp',
};

export const TOKEN_TYPE: Record<EmailKind, string> = {
  signup: 'confirmation_token',
  invite: 'confirmation_token',
  magiclink: 'recovery_token',
  recovery: 'recovery_token',
  email_change: 'email_change_token_new',
};

/**
 * Stores a fresh token of `kind` on the user (column + auth.one_time_tokens), and a flow_state row
 * when the client started a PKCE flow. `address` is the email the token is for (the new one for
 * email_change).
 */
export async function createEmailToken(
  q: Queryable,
  ctx: AuthContext,
  user: UserRow,
  kind: EmailKind,
  address: string,
  redirectTo: string,
  pkce: PkceChallenge | null,
): Promise<IssuedToken> {
  const otp = generateOtp(ctx.settings.otpLength);
  const hashed = tokenHash(address, otp);
  const stored = pkce ? PKCE_PREFIX + hashed : hashed;
  if (kind === 'signup' || kind === 'invite') {
    await q.query(SQL['set-confirmation-token'], [user.id, stored]);
  } else if (kind === 'email_change') {
    await q.query(SQL['set-email-change'], [user.id, address, stored]);
  } else {
    await q.query(SQL['set-recovery-token'], [user.id, stored]);
  }
  await q.query(SQL['upsert-one-time-token'], [user.id, TOKEN_TYPE[kind], stored, address]);
  if (pkce) {
    await q.query(SQL['insert-flow-state'], [
      crypto.randomUUID(),
      user.id,
      crypto.randomUUID(),
      pkce.method,
      pkce.challenge,
      'email',
      AUTH_METHOD[kind],
    ]);
  }
  return {
    otp,
    hashedToken: stored,
    link: verifyLink(ctx.authUrl, stored, kind, redirectTo),
    redirectTo,
  };
}

/**
 * createEmailToken + the email, inside the caller's transaction (a failed send rolls it back), or
 * with `[auth.hook.send_email]` on, the hook call made once that transaction commits.
 */
export async function sendEmailToken(
  q: Queryable,
  ctx: AuthContext,
  user: UserRow,
  kind: EmailKind,
  address: string,
  redirectTo: string,
  pkce: PkceChallenge | null,
): Promise<void> {
  if (kind === 'email_change') return sendEmailChange(q, ctx, user, address, redirectTo, pkce);
  if (ctx.settings.sendEmailHook) {
    // Hosted Auth sends no email itself when the Send Email Hook is on: the hook does.
    const undo = await undoIssue(q, user, TOKEN_TYPE[kind]);
    const issued = await createEmailToken(q, ctx, user, kind, address, redirectTo, pkce);
    await queueHookEmail(q, ctx, user, kind, issued, undo);
    return;
  }
  const issued = await createEmailToken(q, ctx, user, kind, address, redirectTo, pkce);
  try {
    await sendAuthEmail(ctx.mailer, kind, address, issued.link, issued.otp);
  } catch (err) {
    ctx.log('[auth] sending email failed', err);
    throw errors.unexpected(`Error sending ${kind === 'signup' ? 'confirmation' : kind} email`);
  }
}

/**
 * GoTrue's sendEmailChange (api/mail.go): a token for the new address and, with secure email
 * change (`[auth.email] double_confirm_changes`) and a current address, one for the current
 * address too, each mailed to its address (templatemailer EmailChangeMail). Through the Send
 * Email Hook both go in one call, with upstream's field layout: `token`/`token_hash_new` for the
 * current address, `token_new`/`token_hash` for the new one.
 */
async function sendEmailChange(
  q: Queryable,
  ctx: AuthContext,
  user: UserRow,
  newEmail: string,
  redirectTo: string,
  pkce: PkceChallenge | null,
): Promise<void> {
  const secure = ctx.settings.doubleConfirmChanges && !!user.email;
  const types = secure ? ['email_change_token_new', CURRENT_TOKEN] : ['email_change_token_new'];
  const undo = ctx.settings.sendEmailHook ? await undoIssue(q, user, types) : null;
  const issued = await createEmailToken(q, ctx, user, 'email_change', newEmail, redirectTo, pkce);
  let current: IssuedToken | null = null;
  if (secure) {
    const otp = generateOtp(ctx.settings.otpLength);
    const hashed = tokenHash(user.email!, otp);
    const stored = pkce ? PKCE_PREFIX + hashed : hashed;
    await q.query(SQL['set-email-change-current'], [user.id, stored]);
    await q.query(SQL['upsert-one-time-token'], [user.id, CURRENT_TOKEN, stored, user.email]);
    const link = verifyLink(ctx.authUrl, stored, 'email_change', redirectTo);
    current = { otp, hashedToken: stored, link, redirectTo };
  }
  if (undo) {
    await queueHookEmail(
      q,
      ctx,
      user,
      'email_change',
      issued,
      undo,
      current && {
        token: current.otp,
        token_hash: issued.hashedToken,
        token_new: issued.otp,
        token_hash_new: current.hashedToken,
      },
    );
    return;
  }
  try {
    await sendAuthEmail(ctx.mailer, 'email_change', newEmail, issued.link, issued.otp);
    if (current) {
      await sendAuthEmail(ctx.mailer, 'email_change', user.email!, current.link, current.otp);
    }
  } catch (err) {
    ctx.log('[auth] sending email failed', err);
    throw errors.unexpected('Error sending email change email');
  }
}

/** The one-time token type of a secure email change's token for the current address. */
const CURRENT_TOKEN = 'email_change_token_current';

/** Upstream's answer to the first of a secure email change's two links (api/verify.go). */
export const SINGLE_CONFIRMATION_ACCEPTED =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

export type VerifyType = EmailKind | 'email';
export const VERIFY_TYPES: readonly VerifyType[] = [
  'signup',
  'invite',
  'magiclink',
  'recovery',
  'email_change',
  'email',
];

export interface Verified {
  user: UserRow;
  /** The kind of token that matched (for `email`, which of confirmation or magic link). */
  kind: EmailKind;
  pkce: boolean;
  /**
   * The first of a secure email change's two confirmations: nothing changed but the status, and
   * upstream answers SINGLE_CONFIRMATION_ACCEPTED instead of a session.
   */
  halfway?: boolean;
}

function sentAt(user: UserRow, kind: EmailKind): string | null {
  if (kind === 'signup' || kind === 'invite') return user.confirmation_sent_at;
  if (kind === 'email_change') return user.email_change_sent_at;
  return user.recovery_sent_at;
}

function storedToken(user: UserRow, kind: EmailKind): string {
  if (kind === 'signup' || kind === 'invite') return user.confirmation_token ?? '';
  if (kind === 'email_change') return user.email_change_token_new ?? '';
  return user.recovery_token ?? '';
}

/** Which token kinds a verify `type` may consume; `email` covers confirmation and magic link. */
function candidates(type: VerifyType): EmailKind[] {
  if (type === 'email') return ['signup', 'magiclink'];
  if (type === 'signup' || type === 'invite') return ['signup', 'invite'];
  if (type === 'magiclink' || type === 'recovery')
    return [type, type === 'magiclink' ? 'recovery' : 'magiclink'];
  return [type];
}

/**
 * Finds and consumes a token: by `hash` (link / token_hash) or by `email`+`otp`. Throws 403
 * otp_expired when nothing matches or the token is older than otp_expiry (GoTrue's verify.go).
 */
export async function consumeToken(
  q: Queryable,
  ctx: AuthContext,
  type: VerifyType,
  by: { hash: string } | { email: string; otp: string },
): Promise<Verified> {
  // Upstream words the two lookups differently (verify.go verifyTokenHash / verifyUserAndToken).
  const invalid = () =>
    'hash' in by
      ? new AuthError(403, 'otp_expired', 'Email link is invalid or has expired')
      : errors.otpExpired();
  let user: UserRow | undefined;
  let hash: string;
  if ('hash' in by) {
    hash = stripPkce(by.hash);
    user = (await q.query<UserRow>(SQL['user-by-token-hash'], [hash])).rows[0];
  } else {
    user = (await q.query<UserRow>(SQL['user-by-email'], [by.email])).rows[0];
    if (type === 'email_change') {
      user = (await q.query<UserRow>(SQL['user-by-email-change'], [by.email])).rows[0] ?? user;
    }
    hash = '';
  }
  if (!user) throw invalid();
  if (isBanned(user)) throw new AuthError(403, 'user_banned', 'User is banned');
  for (const kind of candidates(type)) {
    // An email change may be confirmed with the new address's token or, in a secure email
    // change, with the current address's. A code is hashed with the address it came with
    // (VerifyParams.Validate), so it only matches the token of that address.
    const tokens: Array<[stored: string, current: boolean]> =
      kind === 'email_change'
        ? [
            [user.email_change_token_new ?? '', false],
            [user.email_change_token_current ?? '', true],
          ]
        : [[storedToken(user, kind), false]];
    const expected = 'hash' in by ? hash : tokenHash(by.email, by.otp);
    const match = tokens.find(([stored]) => stored && stripPkce(stored) === expected);
    if (!match) continue;
    const [stored, current] = match;
    const sent = isoTime(sentAt(user, kind));
    if (!sent || Date.parse(sent) + ctx.settings.otpExpiry * 1000 < Date.now()) throw invalid();
    const pkce = stored.startsWith(PKCE_PREFIX);
    if (kind === 'email_change' && secureChangeHalfway(ctx, user)) {
      // emailChangeVerify: with confirmations on, the first link only records itself.
      await q.query(SQL['email-change-halfway'], [user.id, current]);
      await q.query(SQL['delete-one-time-token'], [
        user.id,
        current ? CURRENT_TOKEN : TOKEN_TYPE[kind],
      ]);
      return { user, kind, pkce, halfway: true };
    }
    await q.query(SQL['delete-one-time-token'], [user.id, TOKEN_TYPE[kind]]);
    if (kind === 'signup' || kind === 'invite') {
      await q.query(SQL['confirm-email'], [user.id]);
    } else if (kind === 'email_change') {
      await q.query(SQL['apply-email-change'], [user.id, user.email_change]);
      await q.query(SQL['delete-user-one-time-tokens'], [user.id]);
      if (!user.email_confirmed_at) await q.query(SQL['confirm-email'], [user.id]);
      await q.query(SQL['update-identity-email'], [user.id, user.email_change]);
    } else {
      // A magic link or recovery link proves the address too.
      await q.query(SQL['clear-recovery-token'], [user.id]);
      await q.query(SQL['confirm-email'], [user.id]);
    }
    return { user, kind, pkce };
  }
  throw invalid();
}

/**
 * Whether verifying an email change token is only the first of two confirmations (GoTrue's
 * emailChangeVerify): secure email change on, email confirmations on (not autoconfirm), neither
 * link used yet, and a current address.
 */
function secureChangeHalfway(ctx: AuthContext, user: UserRow): boolean {
  return (
    ctx.settings.emailConfirmations &&
    ctx.settings.doubleConfirmChanges &&
    (user.email_change_confirm_status ?? 0) === 0 &&
    !!user.email
  );
}

/** The PKCE half of a verified link: hand out the flow's auth code (redirect `?code=`). */
export async function issueAuthCode(
  q: Queryable,
  userId: string,
  kind: EmailKind,
): Promise<string> {
  const flow = (
    await q.query<{ id: string; auth_code: string }>(SQL['latest-flow-state'], [
      userId,
      AUTH_METHOD[kind],
    ])
  ).rows[0];
  if (!flow) throw new AuthError(400, 'flow_state_not_found', 'No associated flow state found.');
  await q.query(SQL['issue-auth-code'], [flow.id]);
  return flow.auth_code;
}
