// POST /verify (verifyOtp) and GET /verify (the email link → 303 redirect) (GoTrue api/verify.go).
import { clientInfo, json, readBody, str, type Handler } from '../context.js';
import { AuthError, errors } from '../errors.js';
import {
  AUTH_METHOD,
  consumeToken,
  issueAuthCode,
  VERIFY_TYPES,
  type VerifyType,
} from '../flows.js';
import { PKCE_PREFIX } from '../otp.js';
import { resolveRedirect } from '../redirect.js';
import { issueSession } from '../sessions.js';
import { normalizeEmail } from '../users.js';

function verifyType(raw: unknown): VerifyType {
  if (raw === 'sms' || raw === 'phone_change') {
    throw new AuthError(400, 'phone_provider_disabled', 'Unsupported phone provider');
  }
  if (typeof raw !== 'string' || !(VERIFY_TYPES as readonly string[]).includes(raw)) {
    throw errors.validation('Verify requires a verification type');
  }
  return raw as VerifyType;
}

export const verifyPost: Handler = async (ctx, r) => {
  const body = await readBody(r);
  const type = verifyType(body.type);
  if (body.phone) throw new AuthError(400, 'phone_provider_disabled', 'Unsupported phone provider');
  const tokenHash = str(body.token_hash);
  const token = str(body.token);
  const email = normalizeEmail(body.email);
  let by: { hash: string } | { email: string; otp: string };
  if (tokenHash) by = { hash: tokenHash };
  else if (token && email) by = { email, otp: token };
  else throw errors.validation('Verify requires either a token or a token hash');
  const session = await ctx.db.transaction(async (tx) => {
    const verified = await consumeToken(tx, ctx, type, by);
    const method = type === 'email' ? AUTH_METHOD.email : AUTH_METHOD[verified.kind];
    return issueSession(tx, ctx.session, verified.user.id, method, clientInfo(r));
  });
  return json(r, 200, session);
};

function redirectResponse(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location } });
}

function withParams(base: string, params: Record<string, string>, where: 'query' | 'fragment') {
  const encoded = new URLSearchParams(params).toString();
  if (where === 'fragment') return `${base.split('#')[0]}#${encoded}`;
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

export const verifyGet: Handler = async (ctx, r) => {
  const q = r.url.searchParams;
  const token = q.get('token') ?? '';
  const redirectTo = resolveRedirect(ctx.settings, q.get('redirect_to'));
  const pkceFlow = token.startsWith(PKCE_PREFIX);
  try {
    const type = verifyType(q.get('type'));
    if (!token) throw errors.otpExpired();
    const outcome = await ctx.db.transaction(async (tx) => {
      const verified = await consumeToken(tx, ctx, type, { hash: token });
      if (verified.pkce) {
        return {
          kind: 'code' as const,
          code: await issueAuthCode(tx, verified.user.id, verified.kind),
        };
      }
      const method = AUTH_METHOD[verified.kind];
      return {
        kind: 'session' as const,
        session: await issueSession(tx, ctx.session, verified.user.id, method, clientInfo(r)),
      };
    });
    if (outcome.kind === 'code')
      return redirectResponse(withParams(redirectTo, { code: outcome.code }, 'query'));
    const s = outcome.session;
    // url.Values.Encode() upstream: keys in sorted order.
    return redirectResponse(
      withParams(
        redirectTo,
        {
          access_token: s.access_token,
          expires_at: String(s.expires_at),
          expires_in: String(s.expires_in),
          refresh_token: s.refresh_token,
          token_type: 'bearer',
          type,
        },
        'fragment',
      ),
    );
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    return redirectResponse(
      withParams(redirectTo, errorParams(err), pkceFlow ? 'query' : 'fragment'),
    );
  }
};

function errorParams(err: AuthError): Record<string, string> {
  if (err.code === 'otp_expired') {
    return {
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
    };
  }
  return {
    error: err.status >= 500 ? 'server_error' : 'invalid_request',
    error_code: err.code,
    error_description: err.message,
  };
}
