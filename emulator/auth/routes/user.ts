// GET/PUT /user and POST /logout: the signed-in user's own account (GoTrue api/user.go, logout.go).
import { json, obj, readBody, requestedRedirect, str, type Handler } from '../context.js';
import { AuthError, errors } from '../errors.js';
import { pkceFromBody, sendEmailToken } from '../flows.js';
import { mergeMetadata } from '../metadata.js';
import { phoneExists, phoneFrom, phoneProviderDisabled, phoneTaken, setPhone } from '../phone.js';
import { assertStrongPassword, checkPassword, hashPassword } from '../passwords.js';
import { requireUser } from '../principal.js';
import { SQL } from '../queries.js';
import { checkReauthentication } from './reauthenticate.js';
import { resolveRedirect } from '../redirect.js';
import { findUserByEmail, isValidEmail, loadUserJson, normalizeEmail } from '../users.js';

export const getUser: Handler = async (ctx, r) => {
  const { user } = await requireUser(r.req, ctx.db);
  return json(r, 200, await loadUserJson(ctx.db, user.id));
};

export const updateUser: Handler = async (ctx, r) => {
  const body = await readBody(r);
  const { user, sessionId } = await requireUser(r.req, ctx.db);
  const phone = phoneFrom(body);
  if (body.app_metadata !== undefined) {
    throw new AuthError(403, 'not_admin', 'Updating app_metadata requires admin privileges');
  }
  const password = str(body.password);
  const email = body.email === undefined ? undefined : normalizeEmail(body.email);
  const data = obj(body.data);
  const pkce = pkceFromBody(body);
  const redirectTo = resolveRedirect(ctx.settings, requestedRedirect(r, body));

  if (user.is_anonymous && password !== undefined && !email && !phone && !user.email) {
    throw new AuthError(
      422,
      'validation_failed',
      'Updating password of an anonymous user without an email or phone is not allowed',
    );
  }
  if (password !== undefined) {
    assertStrongPassword(password, ctx.settings.minimumPasswordLength);
    if (await checkPassword(password, user.encrypted_password)) {
      throw new AuthError(
        422,
        'same_password',
        'New password should be different from the old password.',
      );
    }
  }
  if (email !== undefined && email !== '' && !isValidEmail(email)) throw errors.emailInvalid();
  const encrypted = password !== undefined ? await hashPassword(password) : undefined;

  await ctx.db.transaction(async (tx) => {
    if (encrypted) {
      await checkReauthentication(tx, ctx, user, sessionId, str(body.nonce) ?? '');
      await tx.query(SQL['set-password'], [user.id, encrypted]);
    }
    if (data) {
      await tx.query(SQL['set-user-metadata'], [
        user.id,
        JSON.stringify(mergeMetadata(user.raw_user_meta_data, data)),
      ]);
    }
    if (phone && phone !== user.phone) {
      if (await phoneTaken(tx, phone, user.id)) throw phoneExists();
      // Upstream sends an SMS code unless SMS autoconfirm (the CLI's default) applies the change
      // at once (user.go: smsVerify with phone_change); the emulator has no SMS provider.
      if (ctx.settings.smsConfirmations) throw phoneProviderDisabled();
      await setPhone(tx, user, phone, true);
    }
    if (email && email !== user.email) {
      const other = await findUserByEmail(tx, email);
      if (other && other.id !== user.id) throw errors.emailExists();
      if (user.is_anonymous && !ctx.settings.emailConfirmations) {
        // Upstream user.go: only anonymous users may add an address without confirming it
        // (with autoconfirm); permanent users always confirm a new address.
        await tx.query(SQL['apply-email-change'], [user.id, email]);
        if (!user.email_confirmed_at) await tx.query(SQL['confirm-email'], [user.id]);
      } else {
        await sendEmailToken(tx, ctx, user, 'email_change', email, redirectTo, pkce);
      }
    }
  });
  return json(r, 200, await loadUserJson(ctx.db, user.id));
};

export const logout: Handler = async (ctx, r) => {
  const scope = r.url.searchParams.get('scope') ?? 'global';
  if (scope !== 'global' && scope !== 'local' && scope !== 'others') {
    throw errors.validation(`Unsupported logout scope "${scope}"`);
  }
  const { user, sessionId } = await requireUser(r.req, ctx.db);
  if (scope === 'global' || !sessionId) {
    await ctx.db.query(SQL['delete-user-sessions'], [user.id]);
  } else if (scope === 'local') {
    await ctx.db.query(SQL['delete-session'], [sessionId]);
  } else {
    await ctx.db.query(SQL['delete-other-sessions'], [user.id, sessionId]);
  }
  return new Response(null, { status: 204 });
};
