// POST /otp, /recover, /resend, /invite: endpoints that email a link + code (GoTrue otp.go, recover.go, resend.go, invite.go).
import { json, obj, readBody, requestedRedirect, str, type Handler } from '../context.js';
import { AuthError, errors } from '../errors.js';
import { pkceFromBody, sendEmailToken } from '../flows.js';
import { requireAdmin } from '../principal.js';
import { resolveRedirect } from '../redirect.js';
import { createUserOrFail } from '../signup-user.js';
import {
  findUserByEmail,
  findUserById,
  isValidEmail,
  loadUserJson,
  normalizeEmail,
} from '../users.js';

/** The body's email, validated; `missing` is the endpoint's upstream message for no email. */
function emailFrom(body: Record<string, unknown>, missing: string): string {
  const email = normalizeEmail(body.email);
  if (!email) throw errors.validation(missing);
  if (!isValidEmail(email)) throw errors.emailInvalid();
  return email;
}

const phoneDisabled = () =>
  new AuthError(400, 'phone_provider_disabled', 'Unsupported phone provider');

export const otp: Handler = async (ctx, r) => {
  const body = await readBody(r);
  // Messages of upstream's OtpParams.Validate / Otp.
  if (body.email && body.phone) {
    throw errors.validation('Only an email address or phone number should be provided');
  }
  if (body.phone) throw phoneDisabled();
  const email = emailFrom(body, 'One of email or phone must be set');
  const createUser = body.create_user !== false;
  const pkce = pkceFromBody(body);
  const redirectTo = resolveRedirect(ctx.settings, requestedRedirect(r, body));
  await ctx.db.transaction(async (tx) => {
    let user = await findUserByEmail(tx, email);
    if (!user) {
      if (!createUser) throw new AuthError(422, 'otp_disabled', 'Signups not allowed for otp');
      if (!ctx.settings.enableSignup || !ctx.settings.emailEnableSignup) {
        throw errors.signupDisabled();
      }
      // Upstream signs the address up first; with autoconfirm (the local default) the new user
      // is confirmed at once and gets a magic link like everybody else (magic_link.go).
      const id = await createUserOrFail(ctx, tx, {
        email,
        encryptedPassword: null,
        confirmed: !ctx.settings.emailConfirmations,
        appMetadata: { provider: 'email', providers: ['email'] },
        userMetadata: obj(body.data) ?? {},
        identityExtras: obj(body.data) ?? {},
      });
      user = (await findUserById(tx, id))!;
    } else if (
      !user.email_confirmed_at &&
      (!ctx.settings.enableSignup || !ctx.settings.emailEnableSignup)
    ) {
      // Upstream treats an account that never confirmed as a new sign-up (magic_link.go sends it
      // through Signup), so with sign-ups closed it is refused like an unknown address — an
      // invitee who has not accepted, or an admin-created unconfirmed account.
      throw errors.signupDisabled();
    }
    // An unconfirmed address gets the signup confirmation; a confirmed one a magic link.
    const kind = user.email_confirmed_at ? 'magiclink' : 'signup';
    await sendEmailToken(tx, ctx, user, kind, email, redirectTo, pkce);
  });
  return json(r, 200, {});
};

export const recover: Handler = async (ctx, r) => {
  const body = await readBody(r);
  const email = emailFrom(body, 'Password recovery requires an email');
  const pkce = pkceFromBody(body);
  const redirectTo = resolveRedirect(ctx.settings, requestedRedirect(r, body));
  await ctx.db.transaction(async (tx) => {
    const user = await findUserByEmail(tx, email);
    // Unknown addresses get the same empty answer (no account enumeration).
    if (user) await sendEmailToken(tx, ctx, user, 'recovery', email, redirectTo, pkce);
  });
  return json(r, 200, {});
};

export const resend: Handler = async (ctx, r) => {
  const body = await readBody(r);
  const type = str(body.type);
  // resend.go's Validate: a phone type needs a phone, and a phone needs the phone provider.
  if (type === 'sms' && !body.phone) {
    throw errors.validation('Type provided requires a phone number');
  }
  if ((type === 'sms' || type === 'phone_change') && body.phone) {
    throw new AuthError(400, 'phone_provider_disabled', 'Phone logins are disabled');
  }
  if (type !== 'signup' && type !== 'email_change') {
    throw errors.validation('Missing one of these types: signup, email_change, sms, phone_change');
  }
  const email = emailFrom(body, 'Type provided requires an email address');
  const pkce = pkceFromBody(body);
  const redirectTo = resolveRedirect(ctx.settings, requestedRedirect(r, body));
  await ctx.db.transaction(async (tx) => {
    if (type === 'signup') {
      const user = await findUserByEmail(tx, email);
      if (user && !user.email_confirmed_at) {
        await sendEmailToken(tx, ctx, user, 'signup', email, redirectTo, pkce);
      }
    } else {
      // Upstream finds the user by the current address and mails the pending new one again.
      const user = await findUserByEmail(tx, email);
      if (user?.email_change) {
        await sendEmailToken(tx, ctx, user, 'email_change', user.email_change, redirectTo, pkce);
      }
    }
  });
  return json(r, 200, {});
};

export const invite: Handler = async (ctx, r) => {
  await requireAdmin(r.req);
  const body = await readBody(r);
  const email = emailFrom(body, 'An email address is required');
  const redirectTo = resolveRedirect(ctx.settings, requestedRedirect(r, body));
  const user = await ctx.db.transaction(async (tx) => {
    let row = await findUserByEmail(tx, email);
    if (row?.email_confirmed_at) throw errors.emailExists();
    if (!row) {
      const id = await createUserOrFail(ctx, tx, {
        email,
        encryptedPassword: null,
        confirmed: false,
        appMetadata: { provider: 'email', providers: ['email'] },
        userMetadata: obj(body.data) ?? {},
        invited: true,
      });
      row = (await findUserById(tx, id))!;
    }
    await sendEmailToken(tx, ctx, row, 'invite', email, redirectTo, null);
    return loadUserJson(tx, row.id);
  });
  return json(r, 200, user);
};
