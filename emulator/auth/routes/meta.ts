// GET /settings, /health, /.well-known/jwks.json and the answers for features the emulator lacks.
import { publicJwks } from '../../keys.js';
import { json, type Handler } from '../context.js';
import { AuthError, errors } from '../errors.js';
import { requireAdmin, requireUser } from '../principal.js';

// The OAuth providers GoTrue lists in /settings; none is enabled here.
const PROVIDERS = [
  'apple',
  'azure',
  'bitbucket',
  'discord',
  'facebook',
  'snapchat',
  'figma',
  'fly',
  'github',
  'gitlab',
  'google',
  'keycloak',
  'kakao',
  'linkedin',
  'linkedin_oidc',
  'notion',
  'spotify',
  'slack',
  'slack_oidc',
  'workos',
  'twitch',
  'twitter',
];

export const settings: Handler = async (ctx, r) => {
  const s = ctx.settings;
  const external: Record<string, boolean> = { anonymous_users: s.enableAnonymousSignIns };
  for (const p of PROVIDERS) external[p] = false;
  external.email = s.emailEnableSignup;
  external.phone = false;
  external.zoom = false;
  // Field order and names of upstream's api/settings.go.
  return json(r, 200, {
    external,
    disable_signup: !s.enableSignup,
    mailer_autoconfirm: !s.emailConfirmations,
    phone_autoconfirm: !s.smsConfirmations,
    sms_provider: '',
    saml_enabled: false,
    saml_private_key_next_configured: false,
    passkeys_enabled: false,
  });
};

export const health: Handler = async (_ctx, r) =>
  json(r, 200, {
    version: 'postbox-emulator',
    name: 'GoTrue',
    description: 'GoTrue is a user registration and authentication API',
  });

/** The signing keys' public halves; the HS256 secret is never published (contract §2.2). */
export const jwks: Handler = async (_ctx, r) => json(r, 200, { keys: await publicJwks() });

/** OAuth sign-in: no external provider is configured, so upstream's disabled-provider error. */
export const authorize: Handler = async () => {
  throw new AuthError(400, 'provider_disabled', 'Unsupported provider: provider is not enabled');
};

// Features the CLI's default config.toml leaves off answer GoTrue's own 4xx for them, never a 5xx:
// supabase-js retries 5xx answers, which would turn a disabled feature into a long wait.

/** `/sso` and `/sso/saml/*` with `[auth.saml]` off (GoTrue's requireSAMLEnabled). */
export const samlDisabled: Handler = async () => {
  throw new AuthError(404, 'saml_provider_disabled', 'SAML 2.0 is disabled');
};

/**
 * `/user/identities/*` with `enable_manual_linking = false` (GoTrue's requireManualLinkingEnabled,
 * which runs after requireAuthentication: no valid token is still 401).
 */
export const manualLinkingDisabled: Handler = async (ctx, r) => {
  await requireUser(r.req, ctx.db);
  throw new AuthError(404, 'manual_linking_disabled', 'Manual linking is disabled');
};

/** `/passkeys/*` with passkeys off (GoTrue's requirePasskeyEnabled, before any authentication). */
export const passkeysDisabled: Handler = async () => {
  throw new AuthError(404, 'passkey_disabled', 'Passkeys are disabled');
};

/** `/oauth/*` and its metadata with `[auth.oauth_server]` off (GoTrue's requireOAuthServerEnabled). */
export const oauthServerDisabled: Handler = async () => {
  throw new AuthError(404, 'feature_disabled', 'OAuth server is disabled');
};

/**
 * `/admin/oauth/*` and `/admin/custom-providers/*`: the admin check first (GoTrue's /admin route),
 * then the feature's (requireOAuthServerEnabled, requireCustomOAuthEnabled).
 */
export function adminFeatureDisabled(message: string): Handler {
  return async (_ctx, r) => {
    await requireAdmin(r.req);
    throw new AuthError(404, 'feature_disabled', message);
  };
}

export function unsupported(feature: string): Handler {
  return async () => {
    throw errors.notImplemented(feature);
  };
}
