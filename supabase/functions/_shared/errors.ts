// The error catalogue of SPEC §8 as one typed error; handlers throw it and http.ts answers it.
export type ErrorCode =
  | 'invalid_email'
  | 'invalid_input'
  | 'list_not_found'
  | 'rate_limited'
  | 'token_invalid'
  | 'token_expired'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'no_recipients'
  | 'template_error'
  | 'payload_too_large'
  | 'method_not_allowed'
  | 'internal';

const CATALOGUE: Record<ErrorCode, { status: number; message: string }> = {
  invalid_email: { status: 422, message: 'Enter a valid email address.' },
  invalid_input: { status: 422, message: 'Check the highlighted fields.' },
  list_not_found: { status: 404, message: 'That list does not exist.' },
  rate_limited: { status: 429, message: 'Too many attempts. Try again in a minute.' },
  token_invalid: { status: 400, message: 'This link is not valid.' },
  token_expired: {
    status: 410,
    message: 'This link has expired. Subscribe again to get a new one.',
  },
  unauthenticated: { status: 401, message: 'Sign in to continue.' },
  forbidden: { status: 403, message: 'You do not have permission to do that.' },
  not_found: { status: 404, message: 'Not found.' },
  conflict: { status: 409, message: 'That conflicts with the current state.' },
  no_recipients: { status: 422, message: 'This campaign has no recipients.' },
  // SPEC §10: a merge tag that cannot render blocks a send; the message names the part and line.
  template_error: { status: 422, message: 'A merge tag in this campaign has an error.' },
  payload_too_large: { status: 413, message: 'The request is too large.' },
  // Not in SPEC §8: a wrong HTTP method is the client's bug, answered like the rest.
  method_not_allowed: { status: 405, message: 'This method is not allowed here.' },
  internal: { status: 500, message: 'Something went wrong. Nothing was changed.' },
};

/**
 * A known failure: the handler throws it, `serve` turns it into `{error: {code, message}}`.
 * `internal` always answers the catalogue's message (SPEC §8): a detail given with it is logged,
 * never shown, since it is no use to the caller and may tell more than it should.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly field: string | undefined;

  constructor(
    code: ErrorCode,
    message?: string,
    options: { headers?: Record<string, string>; field?: string } = {},
  ) {
    super(code === 'internal' ? CATALOGUE.internal.message : (message ?? CATALOGUE[code].message));
    if (code === 'internal' && message !== undefined && message !== this.message) {
      console.error(`internal error: ${message}`);
    }
    this.code = code;
    this.status = CATALOGUE[code].status;
    this.headers = options.headers ?? {};
    this.field = options.field;
  }
}

/** `invalid_input` naming the field and the rule, as SPEC §8 asks. */
export function invalidInput(field: string, rule: string): AppError {
  return new AppError('invalid_input', `${field}: ${rule}`, { field });
}
