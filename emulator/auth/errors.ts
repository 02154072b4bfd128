// GoTrue's error type and its two wire shapes (contract §2.5): 2024-01-01 `{code,message}` and legacy.

/** An error with GoTrue's status, error code and message; the one handler turns it into a response. */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra fields upstream adds to the body, e.g. `weak_password: {reasons}`. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const API_VERSION_HEADER = 'X-Supabase-Api-Version';
export const API_VERSION_2024 = '2024-01-01';

/** True when the client asked for the 2024-01-01 API (supabase-js always does). */
export function wantsApiVersion2024(req: Request): boolean {
  const v = req.headers.get(API_VERSION_HEADER);
  // Upstream parses the date and switches the shape for any version on or after 2024-01-01.
  return v !== null && /^\d{4}-\d{2}-\d{2}$/.test(v) && v >= API_VERSION_2024;
}

export function errorResponse(req: Request, err: AuthError): Response {
  const modern = wantsApiVersion2024(req);
  const body = modern
    ? { code: err.code, message: err.message, ...err.extra }
    : { code: err.status, error_code: err.code, msg: err.message, ...err.extra };
  const headers = new Headers({ 'Content-Type': 'application/json', 'x-sb-error-code': err.code });
  if (modern) headers.set(API_VERSION_HEADER, API_VERSION_2024);
  return new Response(JSON.stringify(body), { status: err.status, headers });
}

// Constructors for the errors used in several places, with upstream's messages.
export const errors = {
  badJson: () => new AuthError(400, 'bad_json', 'Could not parse request body as JSON'),
  validation: (message: string) => new AuthError(400, 'validation_failed', message),
  invalidCredentials: () => new AuthError(400, 'invalid_credentials', 'Invalid login credentials'),
  emailNotConfirmed: () => new AuthError(400, 'email_not_confirmed', 'Email not confirmed'),
  emailInvalid: () =>
    new AuthError(400, 'email_address_invalid', 'Unable to validate email address: invalid format'),
  noAuthorization: () =>
    new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token'),
  badJwt: (detail: string) => new AuthError(403, 'bad_jwt', `invalid JWT: ${detail}`),
  notAdmin: () => new AuthError(403, 'not_admin', 'User not allowed'),
  userNotFound: () => new AuthError(404, 'user_not_found', 'User not found'),
  otpExpired: () => new AuthError(403, 'otp_expired', 'Token has expired or is invalid'),
  signupDisabled: () =>
    new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance'),
  emailExists: () =>
    new AuthError(
      422,
      'email_exists',
      'A user with this email address has already been registered',
    ),
  weakPassword: (min: number) =>
    new AuthError(422, 'weak_password', `Password should be at least ${min} characters.`, {
      weak_password: { reasons: ['length'] },
    }),
  notImplemented: (feature: string) =>
    new AuthError(
      501,
      'not_implemented',
      `${feature} is not implemented by the Postbox emulator (see emulator/README.md)`,
    ),
  unexpected: (message = 'Unexpected failure, please check server logs for more information') =>
    new AuthError(500, 'unexpected_failure', message),
};
