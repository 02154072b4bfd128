// POST /signup: email + password sign-up and anonymous sign-in (GoTrue api/signup.go, anonymous.go).
import {
  clientInfo,
  json,
  obj,
  readBody,
  requestedRedirect,
  str,
  type Handler,
} from '../context.js';
import { AuthError, errors } from '../errors.js';
import { pkceFromBody, sendEmailToken } from '../flows.js';
import { assertStrongPassword, hashPassword } from '../passwords.js';
import { SQL } from '../queries.js';
import { resolveRedirect } from '../redirect.js';
import { issueSession } from '../sessions.js';
import { createUserOrFail } from '../signup-user.js';
import {
  findUserByEmail,
  findUserById,
  isValidEmail,
  loadUserJson,
  normalizeEmail,
} from '../users.js';

export const signup: Handler = async (ctx, r) => {
  const body = await readBody(r);
  const { settings } = ctx;
  const data = obj(body.data) ?? {};

  if (!body.email && !body.phone && !body.password) {
    // signInAnonymously() sends only `{data}`.
    if (!settings.enableAnonymousSignIns) {
      throw new AuthError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
    }
    if (!settings.enableSignup) throw errors.signupDisabled();
    const session = await ctx.db.transaction(async (tx) => {
      const id = await createUserOrFail(ctx, tx, {
        email: null,
        encryptedPassword: null,
        confirmed: false,
        appMetadata: {},
        userMetadata: data,
        isAnonymous: true,
      });
      return issueSession(tx, ctx.session, id, 'anonymous', clientInfo(r));
    });
    return json(r, 200, session);
  }

  if (body.phone) {
    throw new AuthError(400, 'phone_provider_disabled', 'Phone signups are disabled');
  }
  if (!settings.enableSignup) throw errors.signupDisabled();
  if (!settings.emailEnableSignup) {
    throw new AuthError(400, 'email_provider_disabled', 'Email signups are disabled');
  }
  const email = normalizeEmail(body.email);
  if (!email) throw errors.validation('To signup, please provide your email');
  if (!isValidEmail(email)) throw errors.emailInvalid();
  const password = str(body.password);
  if (!password) throw errors.validation('Signup requires a valid password');
  assertStrongPassword(password, settings.minimumPasswordLength);
  const pkce = pkceFromBody(body);
  const redirectTo = resolveRedirect(settings, requestedRedirect(r, body));
  const autoconfirm = !settings.emailConfirmations;
  const encrypted = await hashPassword(password);

  const result = await ctx.db.transaction(async (tx) => {
    const existing = await findUserByEmail(tx, email);
    let userId: string;
    if (existing?.email_confirmed_at) {
      if (autoconfirm) {
        throw new AuthError(422, 'user_already_exists', 'User already registered');
      }
      // Upstream hides whether the address is registered: a fake user, and no email.
      return { fake: obfuscatedUser(email, data) };
    } else if (existing) {
      // An unconfirmed sign-up is retried. Upstream leaves the user untouched ("we can't be sure
      // of their claimed identity") and confirms or mails again.
      userId = existing.id;
    } else {
      userId = await createUserOrFail(ctx, tx, {
        email,
        encryptedPassword: encrypted,
        confirmed: autoconfirm,
        appMetadata: { provider: 'email', providers: ['email'] },
        userMetadata: data,
        identityExtras: data,
      });
    }
    if (autoconfirm) {
      if (existing) await tx.query(SQL['confirm-email'], [userId]);
      return { session: await issueSession(tx, ctx.session, userId, 'password', clientInfo(r)) };
    }
    const row = (await findUserById(tx, userId))!;
    await sendEmailToken(tx, ctx, row, 'signup', email, redirectTo, pkce);
    return { user: await loadUserJson(tx, userId) };
  });
  return json(
    r,
    200,
    'session' in result ? result.session : 'fake' in result ? result.fake : result.user,
  );
};

/** GoTrue's obfuscated user for an already-confirmed address (no identities, random id). */
function obfuscatedUser(email: string, data: Record<string, unknown>) {
  const now = new Date().toISOString();
  return {
    id: crypto.randomUUID(),
    aud: 'authenticated',
    role: 'authenticated',
    email,
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: data,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}
