// POST /token: password, refresh_token and pkce grants (GoTrue api/token.go, token_refresh.go).
import { idTokenGrant } from './id-token.js';
import { createHash } from 'node:crypto';
import {
  clientInfo,
  json,
  readBody,
  str,
  type AuthContext,
  type AuthRequest,
  type Handler,
} from '../context.js';
import { AuthError, errors } from '../errors.js';
import { checkPassword } from '../passwords.js';
import { SQL } from '../queries.js';
import { issueSession, refreshSession } from '../sessions.js';
import { findUserByEmail, isBanned, normalizeEmail } from '../users.js';

interface FlowStateRow {
  id: string;
  user_id: string | null;
  code_challenge_method: 's256' | 'plain';
  code_challenge: string;
  authentication_method: string;
  expired: boolean;
}

// GoTrue's flow state lifetime (models.FlowStateExpiry... 5 minutes).
const FLOW_STATE_LIFETIME_S = 300;

export const token: Handler = async (ctx, r) => {
  const grant = r.url.searchParams.get('grant_type');
  const body = await readBody(r);
  if (grant === 'password') return passwordGrant(ctx, r, body);
  if (grant === 'refresh_token') {
    const refreshToken = str(body.refresh_token);
    // Upstream's shape check: at least 12 characters, and a 12-character token is [a-z0-9].
    if (
      !refreshToken ||
      refreshToken.length < 12 ||
      (refreshToken.length === 12 && !/^[a-z0-9]{12}$/.test(refreshToken))
    ) {
      throw errors.validation('Refresh token is not valid');
    }
    const outcome = await ctx.db.transaction((tx) => refreshSession(tx, ctx.session, refreshToken));
    if (outcome instanceof AuthError) throw outcome;
    return json(r, 200, outcome);
  }
  if (grant === 'pkce') return pkceGrant(ctx, r, body);
  if (grant === 'id_token') return idTokenGrant(r, body);
  // Neither [auth.web3.solana] nor [auth.web3.ethereum] is enabled (GoTrue's Web3Grant).
  if (grant === 'web3') {
    throw new AuthError(422, 'web3_provider_disabled', 'Web3 provider is disabled');
  }
  throw new AuthError(400, 'invalid_credentials', 'unsupported_grant_type');
};

async function passwordGrant(
  ctx: AuthContext,
  r: AuthRequest,
  body: Record<string, unknown>,
): Promise<Response> {
  if (body.phone && !body.email) {
    // token.go: 422 for a password sign-in with the phone provider off.
    throw new AuthError(422, 'phone_provider_disabled', 'Phone logins are disabled');
  }
  const email = normalizeEmail(body.email);
  const password = typeof body.password === 'string' ? body.password : '';
  if (!email || !password) {
    throw errors.validation('Only an email address or phone number should be provided on login.');
  }
  const user = await findUserByEmail(ctx.db, email);
  if (!user || user.deleted_at || !(await checkPassword(password, user.encrypted_password))) {
    throw errors.invalidCredentials();
  }
  if (isBanned(user)) throw new AuthError(400, 'user_banned', 'User is banned');
  if (!user.email_confirmed_at) throw errors.emailNotConfirmed();
  const session = await ctx.db.transaction((tx) =>
    issueSession(tx, ctx.session, user.id, 'password', clientInfo(r)),
  );
  // Upstream reports (but allows) passwords that no longer meet the current rules.
  const tooShort = [...password].length < ctx.settings.minimumPasswordLength;
  return json(
    r,
    200,
    tooShort
      ? {
          ...session,
          weak_password: {
            reasons: ['length'],
            message: `Password should be at least ${ctx.settings.minimumPasswordLength} characters.`,
          },
        }
      : session,
  );
}

function challengeOf(verifier: string, method: 's256' | 'plain'): string {
  return method === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url');
}

async function pkceGrant(
  ctx: AuthContext,
  r: AuthRequest,
  body: Record<string, unknown>,
): Promise<Response> {
  const authCode = str(body.auth_code);
  const verifier = str(body.code_verifier);
  if (!authCode || !verifier) {
    throw errors.validation(
      'invalid request: both auth code and code verifier should be non-empty',
    );
  }
  const session = await ctx.db.transaction(async (tx) => {
    const flow = (
      await tx.query<FlowStateRow>(SQL['flow-state-by-code'], [authCode, FLOW_STATE_LIFETIME_S])
    ).rows[0];
    if (!flow) {
      throw new AuthError(
        404,
        'flow_state_not_found',
        'invalid flow state, no valid flow state found',
      );
    }
    if (flow.expired) {
      throw new AuthError(422, 'flow_state_expired', 'invalid flow state, flow state has expired');
    }
    if (challengeOf(verifier, flow.code_challenge_method) !== flow.code_challenge) {
      throw new AuthError(
        400,
        'bad_code_verifier',
        'code challenge does not match previously saved code verifier',
      );
    }
    await tx.query(SQL['delete-flow-state'], [flow.id]);
    if (!flow.user_id) throw errors.userNotFound();
    return issueSession(tx, ctx.session, flow.user_id, flow.authentication_method, clientInfo(r));
  });
  return json(r, 200, session);
}
