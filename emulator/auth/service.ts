// createAuthService(): GoTrue semantics on /auth/v1 — the route table and the one error handler.
import type { ProjectConfig } from '../config.js';
import type { Db } from '../db/types.js';
import type { Service } from '../gateway/types.js';
import { useSigningKeys, type EmulatorKeys } from '../keys.js';
import type { Mailer } from '../mail/mailer.js';
import type { AuthContext, AuthRequest, Handler } from './context.js';
import { AuthError, errorResponse, errors } from './errors.js';
import { withHookOutbox } from './hook-outbox.js';
import * as admin from './routes/admin.js';
import { generateLink } from './routes/generate-link.js';
import * as meta from './routes/meta.js';
import * as mfa from './routes/mfa.js';
import * as otpRoutes from './routes/otp.js';
import { reauthenticate } from './routes/reauthenticate.js';
import { signup } from './routes/signup.js';
import { token } from './routes/token.js';
import * as user from './routes/user.js';
import { verifyGet, verifyPost } from './routes/verify.js';

export interface AuthServiceOptions {
  db: Db;
  config: ProjectConfig;
  keys: EmulatorKeys;
  /** Gateway URL; the issuer is `${url}/auth/v1`. */
  url: string;
  mailer: Mailer;
  log?: (message: string, err?: unknown) => void;
}

const ADMIN_USER = /^\/admin\/users\/[^/]+$/;

/** One line per endpoint: method, path (string or pattern), handler. */
type Route = [string, string | RegExp, Handler];

const ROUTES: Route[] = [
  ['GET', '/health', meta.health],
  ['GET', '/settings', meta.settings],
  ['GET', '/.well-known/jwks.json', meta.jwks],
  ['POST', '/signup', signup],
  ['POST', '/token', token],
  ['GET', '/user', user.getUser],
  ['PUT', '/user', user.updateUser],
  ['POST', '/logout', user.logout],
  ['POST', '/otp', otpRoutes.otp],
  ['POST', '/magiclink', otpRoutes.otp],
  ['POST', '/verify', verifyPost],
  ['GET', '/verify', verifyGet],
  ['POST', '/recover', otpRoutes.recover],
  ['POST', '/resend', otpRoutes.resend],
  ['POST', '/invite', otpRoutes.invite],
  ['POST', '/admin/users', admin.createUser],
  ['GET', '/admin/users', admin.listUsers],
  ['GET', ADMIN_USER, admin.getUserById],
  ['PUT', ADMIN_USER, admin.updateUserById],
  ['DELETE', ADMIN_USER, admin.deleteUser],
  ['POST', '/admin/generate_link', generateLink],
  ['GET', '/authorize', meta.authorize],
  ['GET', '/callback', meta.authorize],
  ['POST', '/callback', meta.authorize],
  ['GET', '/reauthenticate', reauthenticate],
  ['GET', '/user/identities/authorize', meta.manualLinkingDisabled],
  ['DELETE', /^\/user\/identities\/[^/]+$/, meta.manualLinkingDisabled],
  ['POST', '/factors', mfa.enroll],
  ['POST', /^\/factors\/[^/]+\/challenge$/, mfa.challenge],
  ['POST', /^\/factors\/[^/]+\/verify$/, mfa.verify],
  ['DELETE', /^\/factors\/[^/]+$/, mfa.unenroll],
  ['POST', '/sso', meta.samlDisabled],
  ['GET', '/sso/saml/metadata', meta.samlDisabled],
  ['POST', '/sso/saml/acs', meta.samlDisabled],
  ['GET', /^\/passkeys(\/.*)?$/, meta.passkeysDisabled],
  ['POST', /^\/passkeys(\/.*)?$/, meta.passkeysDisabled],
  ['PATCH', /^\/passkeys\/[^/]+$/, meta.passkeysDisabled],
  ['DELETE', /^\/passkeys\/[^/]+$/, meta.passkeysDisabled],
  ['GET', '/.well-known/oauth-authorization-server', meta.oauthServerDisabled],
  ['GET', /^\/admin\/users\/[^/]+\/factors$/, mfa.adminListFactors],
  ['DELETE', /^\/admin\/users\/[^/]+\/factors\/[^/]+$/, mfa.adminDeleteFactor],
  ['GET', /^\/admin\/sso/, meta.unsupported('SSO provider admin')],
  ['POST', /^\/admin\/sso/, meta.unsupported('SSO provider admin')],
  ...(['GET', 'POST', 'PUT', 'DELETE'] as const).flatMap((method): Route[] => [
    [method, /^\/admin\/oauth(\/.*)?$/, meta.adminFeatureDisabled('OAuth server is disabled')],
    [
      method,
      /^\/admin\/custom-providers(\/.*)?$/,
      meta.adminFeatureDisabled('Custom OAuth providers are disabled'),
    ],
  ]),
  ['GET', /^\/admin\/audit$/, meta.unsupported('The audit log API')],
  ['POST', /^\/oauth\//, meta.oauthServerDisabled],
  ['GET', /^\/oauth\//, meta.oauthServerDisabled],
  ['DELETE', /^\/oauth\//, meta.oauthServerDisabled],
];

function findRoute(method: string, path: string): Handler | 'wrong-method' | undefined {
  let pathMatched = false;
  for (const [m, p, handler] of ROUTES) {
    const hit = typeof p === 'string' ? p === path : p.test(path);
    if (!hit) continue;
    if (m === method) return handler;
    pathMatched = true;
  }
  return pathMatched ? 'wrong-method' : undefined;
}

export function createAuthService(opts: AuthServiceOptions): Service {
  const log = opts.log ?? ((message, err) => console.error(message, err));
  // Every service verifies through keys.ts, so the project's signing keys apply to all of them.
  useSigningKeys(opts.config.auth.signingKeys);
  const authUrl = `${opts.url}/auth/v1`;
  const ctx: AuthContext = {
    // Send Email Hook calls wait for their transaction's commit (hook-outbox.ts).
    db: withHookOutbox(opts.db, () => ctx),
    settings: opts.config.auth,
    authUrl,
    mailer: opts.mailer,
    log,
    session: {
      issuer: authUrl,
      jwtExpiry: opts.config.auth.jwtExpiry,
      refreshTokenRotation: opts.config.auth.refreshTokenRotation,
      refreshTokenReuseInterval: opts.config.auth.refreshTokenReuseInterval,
    },
  };

  return {
    async handle(req, gateway) {
      const url = new URL(req.url);
      const path = url.pathname.slice('/auth/v1'.length).replace(/\/+$/, '') || '/';
      const r: AuthRequest = { req, url, path, gateway };
      try {
        const handler = findRoute(req.method, path);
        if (handler === 'wrong-method') {
          throw new AuthError(405, 'method_not_allowed', 'Method Not Allowed');
        }
        if (!handler) throw new AuthError(404, 'not_found', 'Not Found');
        return await handler(ctx, r);
      } catch (err) {
        if (err instanceof AuthError) return errorResponse(req, err);
        log(`[auth] ${req.method} ${path} failed`, err);
        return errorResponse(req, errors.unexpected());
      }
    },
  };
}
