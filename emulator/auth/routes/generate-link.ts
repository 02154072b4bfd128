// POST /admin/generate_link: the link and OTP an email would carry, without sending it (GoTrue api/mail.go).
import { json, obj, readBody, requestedRedirect, str, type Handler } from '../context.js';
import { AuthError, errors } from '../errors.js';
import { createEmailToken } from '../flows.js';
import { emailChangeLink } from './email-change-link.js';
import { assertStrongPassword, hashPassword } from '../passwords.js';
import { requireAdmin } from '../principal.js';
import { SQL } from '../queries.js';
import { resolveRedirect } from '../redirect.js';
import { createUserOrFail } from '../signup-user.js';
import {
  findUserByEmail,
  findUserById,
  isValidEmail,
  loadUserJson,
  normalizeEmail,
} from '../users.js';

const TYPES = ['signup', 'invite', 'magiclink', 'recovery'] as const;

export const generateLink: Handler = async (ctx, r) => {
  await requireAdmin(r.req);
  const body = await readBody(r);
  const type = str(body.type);
  if (type === 'email_change_current' || type === 'email_change_new') {
    return emailChangeLink(ctx, r, body, type);
  }
  if (!type || !(TYPES as readonly string[]).includes(type)) {
    throw errors.validation('Invalid email action link type requested: ' + String(body.type));
  }
  const kind = type as (typeof TYPES)[number];
  const email = normalizeEmail(body.email);
  if (!email || !isValidEmail(email)) throw errors.emailInvalid();
  const redirectTo = resolveRedirect(ctx.settings, requestedRedirect(r, body));
  const data = obj(body.data) ?? {};
  let encrypted: string | null = null;
  if (kind === 'signup') {
    const password = str(body.password);
    if (!password) throw errors.validation('Signup requires a valid password');
    assertStrongPassword(password, ctx.settings.minimumPasswordLength);
    encrypted = await hashPassword(password);
  }

  const result = await ctx.db.transaction(async (tx) => {
    let user = await findUserByEmail(tx, email);
    if (kind === 'signup' || kind === 'invite') {
      if (user?.email_confirmed_at) throw errors.emailExists();
      if (!user) {
        const id = await createUserOrFail(ctx, tx, {
          email,
          encryptedPassword: encrypted,
          confirmed: false,
          appMetadata: { provider: 'email', providers: ['email'] },
          userMetadata: data,
          invited: kind === 'invite',
        });
        user = (await findUserById(tx, id))!;
      } else if (kind === 'invite') {
        await tx.query(SQL['set-invited'], [user.id]);
      }
    } else if (!user) {
      throw new AuthError(404, 'user_not_found', 'User with this email not found');
    }
    const issued = await createEmailToken(tx, ctx, user, kind, email, redirectTo, null);
    return { issued, user: (await loadUserJson(tx, user.id))! };
  });
  return json(r, 200, {
    ...result.user,
    action_link: result.issued.link,
    email_otp: result.issued.otp,
    hashed_token: result.issued.hashedToken,
    redirect_to: result.issued.redirectTo,
    verification_type: kind,
  });
};
