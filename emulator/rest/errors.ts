// REST errors: PostgREST's PGRST codes and the SQLSTATE → HTTP status table (contract §1.4).
import type { PlainResponse } from '../gateway/plain.js';

/** A known error with PostgREST's wire shape. Thrown anywhere in the service, rendered once. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown = null,
    readonly hint: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** PGRST100: a query parameter that does not parse; PostgREST names what failed in details. */
export function parseError(message: string, details: string | null = null): RestError {
  return new RestError(400, 'PGRST100', message, details);
}

/** PGRST301/303: a bearer token that cannot be used (PostgREST's Auth.hs). */
export function jwtError(code: 'PGRST301' | 'PGRST303', message: string): RestError {
  const description = message.replace(/"/g, "'");
  return new RestError(401, code, message, null, null, {
    'WWW-Authenticate': `Bearer error="invalid_token", error_description="${description}"`,
  });
}

export function tableNotFound(schema: string, table: string): RestError {
  return new RestError(
    404,
    'PGRST205',
    `Could not find the table '${schema}.${table}' in the schema cache`,
  );
}

export function columnNotFound(column: string, table: string): RestError {
  return new RestError(
    400,
    'PGRST204',
    `Could not find the '${column}' column of '${table}' in the schema cache`,
  );
}

/** The subset of a Postgres error (node-postgres and PGlite share these fields). */
interface PgErrorLike {
  code: string;
  message: string;
  detail?: string;
  hint?: string;
}

export function isPgError(err: unknown): err is PgErrorLike {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { code?: unknown }).code === 'string' &&
    /^[0-9A-Z]{5}$/.test((err as { code: string }).code) &&
    typeof (err as { message?: unknown }).message === 'string'
  );
}

/**
 * HTTP status for a SQLSTATE, as PostgREST's Error.hs `pgErrorStatus` maps it.
 * `anon` matters for 42501: unauthenticated callers get 401, everyone else 403.
 */
export function statusForSqlState(code: string, isAnon: boolean): number {
  const custom = /^PT(\d{3})$/.exec(code);
  if (custom) return Number(custom[1]);
  if (code === '42501') return isAnon ? 401 : 403;
  if (code === '23505' || code === '23503') return 409;
  if (code === '42P01' || code === '42883') return 404;
  if (code === '25006') return 405;
  if (code === 'P0001' || code === '21000') return 400;
  if (code.startsWith('P0')) return 500;
  if (code === '22023') return 400;
  if (code.startsWith('08') || code.startsWith('53') || code === '57P01') return 503;
  if (code === '57014' || code === '42P17' || code.startsWith('25')) return 500;
  if (code.startsWith('40') || code.startsWith('XX') || code.startsWith('F0')) return 500;
  if (code.startsWith('HV') || code.startsWith('P0')) return 500;
  return 400;
}

/** Turns a Postgres error into PostgREST's answer, including `raise sqlstate 'PGRST'` (full control). */
export function fromPgError(err: PgErrorLike, isAnon: boolean): RestError {
  if (err.code === 'PGRST') return fromRaisedPgrst(err);
  let status = statusForSqlState(err.code, isAnon);
  // "role \"x\" does not exist" from set_config('role', …): PostgREST answers 401.
  if (err.code === '22023' && /^role ".*" does not exist$/.test(err.message)) status = 401;
  return new RestError(status, err.code, err.message, err.detail ?? null, err.hint ?? null);
}

function fromRaisedPgrst(err: PgErrorLike): RestError {
  try {
    const body = JSON.parse(err.message) as Record<string, unknown>;
    const extra = JSON.parse(err.detail ?? '{}') as {
      status?: number;
      headers?: Record<string, string>;
    };
    return new RestError(
      extra.status ?? 400,
      String(body.code ?? ''),
      String(body.message ?? ''),
      body.details == null ? null : String(body.details),
      body.hint == null ? null : String(body.hint),
      extra.headers ?? {},
    );
  } catch {
    // PostgREST's PGRST121: the raised JSON could not be parsed.
    return new RestError(
      500,
      'PGRST121',
      "Could not parse JSON in the RAISE SQLSTATE 'PGRST' error",
      `Invalid JSON value for MESSAGE: '${err.message}'`,
      "MESSAGE must be a JSON object with obligatory keys: 'code', 'message' and optional keys: 'details', 'hint'.",
    );
  }
}

/** Renders a RestError with the body and headers PostgREST sends. */
export function errorResponse(err: RestError, method: string): PlainResponse {
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'proxy-status': `PostgREST; error=${err.code}`,
  };
  for (const [name, value] of Object.entries(err.headers)) headers[name.toLowerCase()] = value;
  const body = JSON.stringify({
    code: err.code,
    details: err.details,
    hint: err.hint,
    message: err.message,
  });
  return { status: err.status, headers, body: method === 'HEAD' ? null : body };
}
