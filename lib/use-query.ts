// The one SWR wrapper every data hook is built on: predictable string keys, and a failed
// Supabase call becomes a thrown QueryError (never `undefined` data that looks like "empty").
import useSWR, { type SWRConfiguration, type SWRResponse } from 'swr';

/** Values that may appear in a key; `undefined` entries are left out, so optional filters are easy. */
export type KeyParams = Record<string, string | number | boolean | null | undefined>;

/** What supabase-js calls resolve to (`PostgrestResponse`, `functions.invoke`, storage, auth). */
export interface SupabaseResult<T> {
  data: T | null;
  error: unknown;
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

/** Turns whatever a supabase-js client put in `error` into a QueryError, keeping its code. */
export function toQueryError(error: unknown): QueryError {
  if (error instanceof QueryError) return error;
  const message = field(error, 'message');
  const code = field(error, 'code');
  const status = field(error, 'status');
  return new QueryError(
    typeof message === 'string' && message ? message : 'Something went wrong.',
    {
      code: typeof code === 'string' ? code : undefined,
      status: typeof status === 'number' ? status : undefined,
      details: error,
    },
  );
}

/** The data of a supabase-js result, or a thrown QueryError. */
export function unwrap<T>(result: SupabaseResult<T>): T | null {
  if (result.error !== null && result.error !== undefined) throw toQueryError(result.error);
  return result.data;
}

/**
 * `useQuery(queryKey('lists', { visibility: 'public' }), () => supabase.from('lists').select())`.
 * A `null` key skips the fetch (e.g. until a query-string parameter is known).
 */
export function useQuery<T>(
  key: string | null,
  fetcher: () => PromiseLike<SupabaseResult<T>>,
  config?: SWRConfiguration<T | null, QueryError>,
): SWRResponse<T | null, QueryError> {
  return useSWR<T | null, QueryError>(key, async () => unwrap(await fetcher()), config);
}
