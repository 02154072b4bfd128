// POST /token?grant_type=id_token when no OAuth provider is enabled (the emulator reads no
// `[auth.external.*]`): the answers of GoTrue's IdTokenGrant/getProvider (token_oidc.go) up to
// "Provider (issuer …) is not enabled", so signInWithIdToken fails as on a project without it.
import { json, str, type AuthRequest } from '../context.js';
import { AuthError, errors } from '../errors.js';

/** GoTrue's OAuthError: 400 `{error, error_description}`, not the usual error shape. */
const oauthError = (r: AuthRequest, description: string) =>
  json(r, 400, { error: 'invalid request', error_description: description });

const FIXED_ISSUERS: Record<string, string> = {
  google: 'https://accounts.google.com',
  facebook: 'https://www.facebook.com',
  kakao: 'https://kauth.kakao.com',
  vercel_marketplace: 'https://marketplace.vercel.com',
  snapchat: 'https://accounts.snapchat.com/accounts/oauth2/token',
};
const APPLE = ['https://appleid.apple.com', 'https://account.apple.com'];
const AZURE = /^https:\/\/login[.]microsoftonline[.]com\/([^/]+)\/v2[.]0\/?$/;

/** The `iss` of an ID token's payload, unverified (DetectAppleIDTokenIssuer and Azure's). */
function tokenIssuer(idToken: string): string | null {
  const parts = idToken.split('.');
  if (parts.length !== 3) return null;
  try {
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    const iss = (payload as { iss?: unknown } | null)?.iss;
    return typeof iss === 'string' ? iss : '';
  } catch {
    return null;
  }
}

/** An issuer read from the token for Apple or Azure, checked as upstream checks it. */
function detectedIssuer(
  idToken: string,
  given: string,
  name: string,
  matches: (iss: string) => boolean,
): string {
  const iss = tokenIssuer(idToken);
  if (iss === null)
    throw errors.validation(`Unable to detect issuer in ID token for ${name} provider`);
  if (!matches(iss))
    throw errors.validation(`Detected ID token issuer is not an ${name} ID token issuer`);
  if (given && given !== iss)
    throw errors.validation('Provided issuer does not match ID token issuer');
  return iss;
}

const disabled = (issuer: string) =>
  new AuthError(400, 'provider_disabled', `Provider (issuer "${issuer}") is not enabled`);

export async function idTokenGrant(
  r: AuthRequest,
  body: Record<string, unknown>,
): Promise<Response> {
  const idToken = str(body.id_token) ?? '';
  const provider = str(body.provider) ?? '';
  const issuer = str(body.issuer) ?? '';
  const clientId = str(body.client_id) ?? '';
  if (!idToken) return oauthError(r, 'id_token required');
  if (!provider && (!clientId || !issuer)) {
    return oauthError(r, 'provider or client_id and issuer required');
  }
  if (body.link_identity === true && !r.req.headers.get('authorization')) {
    return oauthError(r, 'Linking requires a valid user access token in Authorization');
  }
  if (provider === 'apple' || APPLE.includes(issuer)) {
    throw disabled(detectedIssuer(idToken, issuer, 'Apple', (i) => APPLE.includes(i)));
  }
  if (provider === 'google' || issuer === FIXED_ISSUERS.google)
    throw disabled(FIXED_ISSUERS.google!);
  if (provider === 'azure' || AZURE.test(issuer)) {
    throw disabled(detectedIssuer(idToken, issuer, 'Azure', (i) => AZURE.test(i)));
  }
  if (provider === 'facebook' || issuer === FIXED_ISSUERS.facebook) {
    throw disabled(FIXED_ISSUERS.facebook!);
  }
  // Keycloak's issuer is its configured URL, empty when it is not set up.
  if (provider === 'keycloak') throw disabled('');
  for (const name of ['kakao', 'vercel_marketplace', 'snapchat']) {
    if (provider === name || issuer === FIXED_ISSUERS[name]) throw disabled(FIXED_ISSUERS[name]!);
  }
  if (provider.startsWith('custom:'))
    throw errors.validation('Custom OAuth providers are disabled');
  // No `additional allowed issuers` are configured either.
  throw errors.validation(`Custom OIDC provider "${provider}" not allowed`);
}
