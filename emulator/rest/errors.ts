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
 * HTTP status for a SQLSTATE, case by case as PostgREST's Error.hs `pgErrorStatus` maps it (the
 * same in v12.2, v13 and v14); `message` matters for 21000 and 42883. `anon` matters for 42501:
 * unauthenticated callers get 401, everyone else 403.
 */
export function statusForSqlState(code: string, isAnon: boolean, message = ''): number {
  const prefix = code.slice(0, 2);
  switch (code) {
    case '23503': // foreign_key_violation
    case '23505': // unique_violation
      return 409;
    case '25006': // read_only_sql_transaction
      return 405;
    case '21000': // cardinality_violation: a client error only for pg-safeupdate's refusal
      return message.endsWith('requires a WHERE clause') ? 400 : 500;
    case '53400': // configuration_limit_exceeded
      return 500;
    case '57P01': // admin_shutdown
      return 503;
    case 'P0001': // raise exception's default
      return 400;
    case '42883': // undefined_function
      return message.startsWith('function xmlagg(') ? 406 : 404;
    case '42P01': // undefined_table
      return 404;
    case '42P17': // infinite recursion
      return 500;
    case '42501': // insufficient_privilege
      return isAnon ? 401 : 403;
  }
  switch (prefix) {
    case '08': // connection exception
    case '53': // insufficient resources
      return 503;
    case '0L': // invalid grantor
    case '0P': // invalid role specification
    case '28': // invalid authorization specification
      return 403;
    case '09': // triggered action exception
    case '25': // invalid transaction state
    case '2D': // invalid transaction termination
    case '38': // external routine exception
    case '39': // external routine invocation exception
    case '3B': // savepoint exception
    case '40': // transaction rollback
    case '54': // program limit exceeded
    case '55': // object not in prerequisite state
    case '57': // operator intervention (57014 query_canceled included)
    case '58': // system error
    case 'F0': // configuration file error
    case 'HV': // foreign data wrapper error
    case 'P0': // PL/pgSQL error
    case 'XX': // internal error
      return 500;
    case 'PT': {
      // `raise sqlstate 'PT418'`: the status is the code's digits (PostgREST's mkStatus).
      const digits = code.slice(2);
      return /^\d{3}$/.test(digits) ? Number(digits) : 500;
    }
  }
  return 400;
}

/** Turns a Postgres error into PostgREST's answer, including `raise sqlstate 'PGRST'` (full control). */
export function fromPgError(err: PgErrorLike, isAnon: boolean): RestError {
  if (err.code === 'PGRST') return fromRaisedPgrst(err);
  let status = statusForSqlState(err.code, isAnon, err.message);
  // "role \"x\" does not exist" from set_config('role', …): PostgREST answers 401 (v13+).
  if (err.code === '22023' && /^role ".*" does not exist$/.test(err.message)) status = 401;
  // 08P01 (protocol_violation) is never a lost connection here but a statement the emulator
  // built wrong; upstream's 503 would make clients retry it, so it answers 500 like any bug.
  if (err.code === '08P01') status = 500;
  // Error.hs gives every Postgres error answered 401 `WWW-Authenticate: Bearer`.
  const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
  return new RestError(
    status,
    err.code,
    err.message,
    err.detail ?? null,
    err.hint ?? null,
    headers,
  );
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
