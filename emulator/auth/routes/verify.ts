// POST /verify (verifyOtp) and GET /verify (the email link → 303 redirect) (GoTrue api/verify.go).
import { clientInfo, json, readBody, str, type Handler } from '../context.js';
import { AuthError, errors } from '../errors.js';
import {
  consumeToken,
  issueAuthCode,
  SINGLE_CONFIRMATION_ACCEPTED,
  VERIFY_TYPES,
  type VerifyType,
} from '../flows.js';
import { PKCE_PREFIX } from '../otp.js';
import { resolveRedirect } from '../redirect.js';
import { issueSession } from '../sessions.js';
import { isValidEmail, normalizeEmail } from '../users.js';

const phoneDisabled = () =>
  new AuthError(400, 'phone_provider_disabled', 'Unsupported phone provider');

function verifyType(raw: unknown): VerifyType {
  if (!raw) throw errors.validation('Verify requires a verification type');
  if (raw === 'sms' || raw === 'phone_change') throw phoneDisabled();
  if (typeof raw !== 'string' || !(VERIFY_TYPES as readonly string[]).includes(raw)) {
    throw errors.validation('Unsupported verification type');
  }
  return raw as VerifyType;
}

export const verifyPost: Handler = async (ctx, r) => {
  const body = await readBody(r);
  const type = verifyType(body.type);
  const tokenHash = str(body.token_hash);
  const token = str(body.token);
  if ((!token && !tokenHash) || (token && tokenHash)) {
    throw errors.validation('Verify requires either a token or a token hash');
  }
  let by: { hash: string } | { email: string; otp: string };
  if (tokenHash) {
    if (body.email || body.phone || body.redirect_to) {
      throw errors.validation('Only the token_hash and type should be provided');
    }
    by = { hash: tokenHash };
  } else {
    if (body.phone) throw phoneDisabled();
    const email = normalizeEmail(body.email);
    if (!email) {
      throw errors.validation('Only an email address or phone number should be provided on verify');
    }
    if (!isValidEmail(email)) {
      throw new AuthError(422, 'validation_failed', 'Invalid email format');
    }
    by = { email, otp: token! };
  }
  const session = await ctx.db.transaction(async (tx) => {
    const verified = await consumeToken(tx, ctx, type, by);
    if (verified.halfway) return null;
    // Upstream records every verified email token as amr "otp".
    return issueSession(tx, ctx.session, verified.user.id, 'otp', clientInfo(r));
  });
  // The first of a secure email change's two codes: no session yet (verifyPost).
  if (!session) return json(r, 200, { msg: SINGLE_CONFIRMATION_ACCEPTED, code: '200' });
  return json(r, 200, session);
};

function redirectResponse(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location } });
}

/** `base#k=v…` as Go's url.Values.Encode() writes it: keys sorted, `sb` marks a Supabase redirect. */
function withFragment(base: string, params: Record<string, string>): string {
  const sorted = Object.entries({ ...params, sb: '' }).sort(([a], [b]) => (a < b ? -1 : 1));
  return `${base.split('#')[0]}#${new URLSearchParams(sorted).toString()}`;
}

function withQuery(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

// Upstream's oauthErrorMap: HTTP status → OAuth `error`.
const OAUTH_ERROR: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized_client',
  403: 'access_denied',
  500: 'server_error',
  503: 'temporarily_unavailable',
};

/** prepErrorRedirectURL: the error always in the fragment, and in the query too for PKCE. */
function errorRedirect(base: string, err: AuthError, pkce: boolean): string {
  const params: Record<string, string> = {};
  const oauth = OAUTH_ERROR[err.status];
  if (oauth) params.error = oauth;
  params.error_code = err.code;
  params.error_description = err.message;
  return withFragment(pkce ? withQuery(base, params) : base, params);
}

export const verifyGet: Handler = async (ctx, r) => {
  const q = r.url.searchParams;
  const type = verifyType(q.get('type'));
  const token = q.get('token');
  if (!token) throw errors.validation('Verify requires a token or a token hash');
  const redirectTo = resolveRedirect(ctx.settings, q.get('redirect_to'));
  const pkceFlow = token.startsWith(PKCE_PREFIX);
  try {
    const outcome = await ctx.db.transaction(async (tx) => {
      const verified = await consumeToken(tx, ctx, type, { hash: token });
      if (verified.halfway) return { kind: 'halfway' as const };
      if (pkceFlow) {
        const code = await issueAuthCode(
          tx,
          verified.user.id,
          type === 'email' ? verified.kind : type,
        );
        return { kind: 'code' as const, code };
      }
      const session = await issueSession(tx, ctx.session, verified.user.id, 'otp', clientInfo(r));
      return { kind: 'session' as const, session };
    });
    if (outcome.kind === 'halfway') {
      // prepRedirectURL: the message in the fragment, and in the query too for PKCE.
      const message = { message: SINGLE_CONFIRMATION_ACCEPTED };
      return redirectResponse(
        withFragment(pkceFlow ? withQuery(redirectTo, message) : redirectTo, message),
      );
    }
    if (outcome.kind === 'code') {
      return redirectResponse(withQuery(redirectTo, { code: outcome.code }));
    }
    const s = outcome.session;
    return redirectResponse(
      withFragment(redirectTo, {
        access_token: s.access_token,
        expires_at: String(s.expires_at),
        expires_in: String(s.expires_in),
        refresh_token: s.refresh_token,
        token_type: 'bearer',
        type,
      }),
    );
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    return redirectResponse(errorRedirect(redirectTo, err, pkceFlow));
  }
};
