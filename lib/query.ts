// Query keys and errors shared by the two data hooks: lib/use-query.ts (SWR, the team's pages) and
// lib/use-public-query.ts (the public pages). Predictable string keys, and a failed Supabase call
// becomes a QueryError with a message the page may show (never `undefined` data that looks like
// "empty"). No SWR here, so public pages that import this do not download it.
import { CATALOGUE_MESSAGES, isNetworkFailureMessage } from './catalogue';

/** Values that may appear in a key; `undefined` entries are left out, so optional filters are easy. */
export type KeyParams = Record<string, string | number | boolean | null | undefined>;

/** What supabase-js calls resolve to (`PostgrestResponse`, `functions.invoke`, storage, auth). */
export interface SupabaseResult<T> {
  data: T | null;
  error: unknown;
  /** HTTP status of PostgREST answers (0 when the request got no answer). */
  status?: number;
}

/**
 * `resource?a=1&b=x` with parameters sorted by name, so the same query always has the same key and
 * `mutate(queryKey('lists'))` after a write revalidates exactly what the hook for it reads.
 */
export function queryKey(resource: string, params: KeyParams = {}): string {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*(\/[a-z0-9]+(-[a-z0-9]+)*)*$/.test(resource)) {
    throw new Error(`query resource "${resource}" must be kebab-case words separated by "/"`);
  }
  const search = new URLSearchParams();
  for (const name of Object.keys(params).sort()) {
    const value = params[name];
    if (value !== undefined) search.append(name, value === null ? 'null' : String(value));
  }
  const query = search.toString();
  return query ? `${resource}?${query}` : resource;
}

/** A failed query as the UI sees it: a message to show, plus the upstream code and status. */
export class QueryError extends Error {
  readonly code: string | undefined;
  readonly status: number | undefined;
  readonly details: unknown;

  constructor(
    message: string,
    options: { code?: string; status?: number; details?: unknown } = {},
  ) {
    super(message);
    this.name = 'QueryError';
    this.code = options.code;
    this.status = options.status;
    this.details = options.details;
  }
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

/**
 * SQLSTATE classes PostgREST answers with a 5xx (connection, resources, operator intervention,
 * system and internal errors): a server failure even where the HTTP status was not kept.
 */
const SERVER_SQLSTATE = /^(08|53|54|55|57|58|F0|HV|XX)[0-9A-Z]{3}$/;

/** PostgREST's codes for a missing, expired or rejected token. */
const AUTH_CODES = new Set(['PGRST300', 'PGRST301', 'PGRST302', 'PGRST303']);

/**
 * What the page may show for an error (SPEC §8: catalogue messages, never raw server output):
 * no answer → the network message; 5xx or a body that is not an API error (an HTML error page) →
 * the internal message; a refused token or an RLS denial → their catalogue messages; other 4xx
 * answers keep the API's message, which names the problem (callers map codes they know).
 */
function displayMessage(
  message: string,
  code: string | undefined,
  status: number | undefined,
  error: unknown,
): string {
  const name = field(error, 'name');
  if (
    status === 0 ||
    name === 'StorageUnknownError' ||
    name === 'FunctionsFetchError' ||
    isNetworkFailureMessage(message)
  ) {
    return CATALOGUE_MESSAGES.unreachable;
  }
  if (
    (status !== undefined && status >= 500) ||
    (code !== undefined && SERVER_SQLSTATE.test(code)) ||
    message.trimStart().startsWith('<')
  ) {
    return CATALOGUE_MESSAGES.internal;
  }
  if (status === 401 || (code !== undefined && AUTH_CODES.has(code))) {
    return CATALOGUE_MESSAGES.unauthenticated;
  }
  if (code === '42501' || status === 403) return CATALOGUE_MESSAGES.forbidden;
  return message || CATALOGUE_MESSAGES.internal;
}

/**
 * Turns whatever a supabase-js client put in `error` into a QueryError, keeping its code and
 * status; `status` is the HTTP status of the result when the error itself does not carry one
 * (PostgREST). The upstream text stays in `details` for diagnostics, never in `message`.
 */
export function toQueryError(error: unknown, status?: number): QueryError {
  if (error instanceof QueryError) return error;
  const message = field(error, 'message');
  const code = field(error, 'code');
  const ownStatus = field(error, 'status');
  const knownStatus = typeof ownStatus === 'number' ? ownStatus : status;
  const knownCode = typeof code === 'string' && code ? code : undefined;
  const text = typeof message === 'string' ? message : '';
  const shown = displayMessage(text, knownCode, knownStatus, error);
  return new QueryError(shown, {
    code: typeof code === 'string' ? code : undefined,
    status: knownStatus,
    details: error,
  });
}

/** The data of a supabase-js result, or a thrown QueryError. */
export function unwrap<T>(result: SupabaseResult<T>): T | null {
  if (result.error !== null && result.error !== undefined) {
    throw toQueryError(result.error, result.status);
  }
  return result.data;
}
