// Reading what an edge function answered (SPEC §7, §8): the catalogue error shape
// `{error: {code, message, field?}}`, platform failures, and 2xx bodies checked before use.
import {
  FunctionsFetchError,
  FunctionsHttpError,
  FunctionsRelayError,
} from '@supabase/functions-js';
import { CATALOGUE_MESSAGES } from './catalogue';
import { QueryError, type SupabaseResult } from './query';

export const FUNCTION_MESSAGES = {
  unreachable: CATALOGUE_MESSAGES.unreachable,
  not_deployed: 'This part of the site is not available yet.',
  internal: CATALOGUE_MESSAGES.internal,
} as const;

/** A failed call as a page shows it: catalogue code and message, and the field it concerns. */
export interface FunctionFailure {
  ok: false;
  code: string;
  message: string;
  /** `field` of the catalogue error (e.g. `email`, `name`), or null for the whole form. */
  field: string | null;
  /** HTTP status, or null when no answer was read (network, CORS). */
  status: number | null;
}

export type FunctionOutcome<T> = { ok: true; data: T } | FunctionFailure;

/** What `supabase.functions.invoke()` resolves to. */
export interface InvokeResult {
  data: unknown;
  error: unknown;
  response?: Response;
}

/** Checks a 2xx body and returns it typed, or null when it is not the documented shape. */
export type Parser<T> = (data: unknown) => T | null;

export interface ReadOptions {
  /** Shown when the function is not deployed (a 404 that is not a catalogue error). */
  notDeployed?: string;
  /** Shown when the request never got a readable answer. */
  unreachable?: string;
}

export function failure(
  code: string,
  message: string,
  field: string | null = null,
  status: number | null = null,
): FunctionFailure {
  return { ok: false, code, message, field, status };
}

async function readCatalogueError(
  res: Response,
): Promise<{ code: string; message: string; field: string | null } | null> {
  try {
    const body = (await res.clone().json()) as {
      error?: { code?: unknown; message?: unknown; field?: unknown };
    };
    const { code, message, field } = body.error ?? {};
    if (typeof code === 'string' && typeof message === 'string' && message) {
      return { code, message, field: typeof field === 'string' && field ? field : null };
    }
  } catch {
    // Not JSON (e.g. the platform's own "Function not found" text): handled by status below.
  }
  return null;
}

/** Turns an invoke result into what the page shows; never reports a success it did not get. */
export async function readFunctionResult<T>(
  result: InvokeResult,
  parse: Parser<T>,
  options: ReadOptions = {},
): Promise<FunctionOutcome<T>> {
  const { data, error } = result;
  if (!error) {
    const parsed = parse(data);
    // A 2xx we do not understand is not a success.
    return parsed === null
      ? failure('internal', FUNCTION_MESSAGES.internal)
      : { ok: true, data: parsed };
  }
  if (error instanceof FunctionsFetchError) {
    return failure('unreachable', options.unreachable ?? FUNCTION_MESSAGES.unreachable);
  }
  if (error instanceof FunctionsHttpError || error instanceof FunctionsRelayError) {
    const res = result.response ?? (error.context as Response | undefined);
    const known = res ? await readCatalogueError(res) : null;
    // Catalogue errors are safe to show; platform errors (401 Invalid JWT, 500 worker traces) are not.
    if (known) return failure(known.code, known.message, known.field, res?.status ?? null);
    if (res?.status === 404) {
      return failure(
        'not_deployed',
        options.notDeployed ?? FUNCTION_MESSAGES.not_deployed,
        null,
        404,
      );
    }
  }
  return failure('internal', FUNCTION_MESSAGES.internal);
}

/** A failure as the QueryError `useQuery` hooks throw; `details.field` keeps the field. */
export function toFunctionQueryError(outcome: FunctionFailure): QueryError {
  return new QueryError(outcome.message, {
    code: outcome.code,
    status: outcome.status ?? undefined,
    details: { field: outcome.field },
  });
}

/** For `useQuery` fetchers: a successful outcome's data, or a QueryError in `error`. */
export function asQueryResult<T>(outcome: FunctionOutcome<T>): SupabaseResult<T> {
  return outcome.ok
    ? { data: outcome.data, error: null }
    : { data: null, error: toFunctionQueryError(outcome) };
}

// Small shape checks shared by the parsers of each function's answer.
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isString(value: unknown): value is string {
  return typeof value === 'string';
}

export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** `{slug, name}` of a list as the functions name it. */
export interface ListRef {
  slug: string;
  name: string;
}

export function parseListRef(value: unknown): ListRef | null {
  if (!isRecord(value) || !isString(value.slug) || !isString(value.name)) return null;
  return { slug: value.slug, name: value.name };
}

/** Every item through `parse`, or null when any one is not the documented shape. */
export function parseArray<T>(value: unknown, parse: Parser<T>): T[] | null {
  if (!Array.isArray(value)) return null;
  const out: T[] = [];
  for (const item of value) {
    const parsed = parse(item);
    if (parsed === null) return null;
    out.push(parsed);
  }
  return out;
}
