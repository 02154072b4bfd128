// Pure parts of team sign-in: where to go next, what Auth put on the callback URL, and Auth's
// errors in words the login and callback pages show (no client here, so unit tests need no network).

/** Where to go after signing in: a same-site path from `?next=`, else the dashboard. */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//')) return '/admin/';
  // A backslash or a control character could turn a path into another origin in some browsers.
  if ([...next].some((c) => c === '\\' || c.charCodeAt(0) < 32)) return '/admin/';
  if (next.startsWith('/login') || next.startsWith('/auth/')) return '/admin/';
  return next;
}

/** `${origin}/auth/callback/?next=…`: where the emailed link comes back to. */
export function callbackUrl(origin: string, next: string): string {
  const target = safeNext(next);
  const query = target === '/admin/' ? '' : `?next=${encodeURIComponent(target)}`;
  return `${origin}/auth/callback/${query}`;
}

export type CallbackParams =
  | { kind: 'code'; code: string; next: string }
  | { kind: 'tokens'; accessToken: string; refreshToken: string; next: string }
  | { kind: 'error'; message: string; code: string | null; next: string }
  | { kind: 'none'; next: string };

/**
 * What Auth put on `/auth/callback/`: `?code=` (PKCE), `#access_token=…&refresh_token=…` (the
 * implicit flow, e.g. a link made by an older client), or `error_description` in the query (PKCE)
 * or the fragment (implicit), as GoTrue redirects.
 */
export function parseCallback(href: string): CallbackParams {
  const url = new URL(href);
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  const query = url.searchParams;
  const next = safeNext(query.get('next'));
  const description = query.get('error_description') ?? hash.get('error_description');
  const errorName = query.get('error') ?? hash.get('error');
  if (description || errorName) {
    return {
      kind: 'error',
      message: (description ?? errorName ?? '').replace(/\+/g, ' '),
      code: query.get('error_code') ?? hash.get('error_code'),
      next,
    };
  }
  const code = query.get('code');
  if (code) return { kind: 'code', code, next };
  const accessToken = hash.get('access_token');
  const refreshToken = hash.get('refresh_token');
  if (accessToken && refreshToken) return { kind: 'tokens', accessToken, refreshToken, next };
  return { kind: 'none', next };
}

/** A sign-in failure as the login and callback pages show it. */
export class SignInError extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'SignInError';
  }
}

/** Auth's answer to a sign-in link asked for an address with no account (sign-ups are closed). */
export function isUnknownAccount(error: { code?: string }): boolean {
  return error.code === 'otp_disabled' || error.code === 'signup_disabled';
}

export function authMessage(error: {
  name?: string;
  message?: string;
  code?: string;
  status?: number;
}): SignInError {
  const code = error.code ?? null;
  switch (code) {
    case 'otp_disabled':
    case 'signup_disabled':
      return new SignInError(
        'This address is not on the team yet. If you were invited, open the link in your invitation email; otherwise ask an owner of the team to invite you.',
        code,
      );
    case 'invalid_credentials':
      return new SignInError('That email and password do not match.', code);
    case 'over_email_send_rate_limit':
    case 'over_request_rate_limit':
      return new SignInError('Too many attempts. Try again in a minute.', code);
    case 'otp_expired':
      return new SignInError('This sign-in link has expired or was already used.', code);
    case 'email_address_invalid':
    case 'validation_failed':
      return new SignInError('Enter a valid email address.', code);
    case 'flow_state_not_found':
    case 'flow_state_expired':
    case 'bad_code_verifier':
      return new SignInError(
        'This link was opened in a different browser or has expired. Request a new one here.',
        code,
      );
  }
  if (error.name === 'AuthPKCECodeVerifierMissingError') {
    return new SignInError(
      'Open the sign-in link in the same browser where you asked for it, or request a new one.',
      'pkce_verifier_missing',
    );
  }
  // supabase-js reports a network failure as AuthRetryableFetchError with status 0.
  if (error.name === 'AuthRetryableFetchError' || !error.status) {
    return new SignInError('We could not reach the server. Check your connection and try again.');
  }
  return new SignInError(error.message || 'Signing in failed. Try again.', code);
}
