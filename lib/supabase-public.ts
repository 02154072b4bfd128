// The public pages' lean Supabase access: PostgREST reads with plain fetch (a few hundred bytes
// instead of postgrest-js's ~5 KB gzip), as the anon role with the publishable key; edge function
// calls are in lib/public-functions.ts, loaded only by what calls a function. No Auth and no
// Realtime here: pages that show something live load Realtime alone on demand (onBroadcast,
// lib/public-realtime.ts), so only they ever download it.
import type { Database } from './database.types';
import { SUPABASE_PUBLISHABLE_KEY, SUPABASE_URL } from './config';
import { whenIdle } from './when-idle';

type PublicFunctions = Database['public']['Functions'];
type Args<F extends keyof PublicFunctions> = PublicFunctions[F]['Args'] extends never
  ? Record<string, never>
  : PublicFunctions[F]['Args'];
type Returns<F extends keyof PublicFunctions> = PublicFunctions[F]['Returns'];
type Element<T> = T extends readonly (infer E)[] ? E : T;

/** What supabase-js calls resolve to, as lib/use-query.ts reads it. */
export interface RestResult<T> {
  data: T | null;
  /** PostgREST's `{code, message, details, hint}`, or a network failure's message. */
  error: { code: string; message: string; details: string | null; hint: string | null } | null;
  /** HTTP status; 0 when the request got no answer. */
  status: number;
}

/** What supabase-js sends: the key as `apikey`, and as a Bearer token only when it is a JWT. */
export function anonHeaders(): Record<string, string> {
  const headers: Record<string, string> = { apikey: SUPABASE_PUBLISHABLE_KEY };
  const newKey = /^sb_(publishable|secret)_/.test(SUPABASE_PUBLISHABLE_KEY);
  if (!newKey) headers.Authorization = `Bearer ${SUPABASE_PUBLISHABLE_KEY}`;
  return headers;
}

function restError(message: string, code = '', details: string | null = null) {
  return { code, message, details, hint: null };
}

/**
 * One PostgREST request. `one` reads a single row as postgrest-js's maybeSingle() does: no row is
 * `null`, more than one is PGRST116 (406).
 */
async function rest<T>(
  path: string,
  init: RequestInit,
  one: boolean,
  early?: Promise<Response>,
): Promise<RestResult<T>> {
  let res: Response;
  let text: string;
  try {
    res = await (early ??
      fetch(`${SUPABASE_URL}/rest/v1/${path}`, {
        ...init,
        headers: { ...anonHeaders(), Accept: 'application/json', ...init.headers },
      }));
    text = await res.text();
  } catch (error) {
    // As postgrest-js reports it: "TypeError: Failed to fetch", status 0.
    const { name, message } = error as Error;
    return { data: null, error: restError(`${name}: ${message}`), status: 0 };
  }
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's HTML error page): the status below decides, the text is kept as message.
    if (res.ok) return { data: null, error: restError(text), status: res.status };
  }
  if (!res.ok) {
    const e = (body ?? {}) as Partial<NonNullable<RestResult<T>['error']>>;
    const error = restError(typeof e.message === 'string' ? e.message : text, e.code ?? '');
    return {
      data: null,
      error: { ...error, details: e.details ?? null, hint: e.hint ?? null },
      status: res.status,
    };
  }
  if (one && Array.isArray(body)) {
    if (body.length > 1) {
      const error = restError(
        'JSON object requested, multiple (or no) rows returned',
        'PGRST116',
        `Results contain ${body.length} rows, application/vnd.pgrst.object+json requires 1 row`,
      );
      return { data: null, error, status: 406 };
    }
    body = body[0] ?? null;
  }
  return { data: body as T, error: null, status: res.status };
}

/** What a function call sends besides its body (lib/early-read.ts sends the same). */
export function rpcHeaders(): Record<string, string> {
  return { ...anonHeaders(), Accept: 'application/json', 'Content-Type': 'application/json' };
}

/** The body of a function call (lib/early-read.ts keys the requests it started by it). */
export function rpcBody(args: object | undefined): string {
  return JSON.stringify(args ?? {});
}

function callRpc<T>(
  fn: string,
  args: object | undefined,
  one: boolean,
  early?: Promise<Response>,
): Promise<RestResult<T>> {
  const body = rpcBody(args);
  return rest<T>(`rpc/${fn}`, { method: 'POST', headers: rpcHeaders(), body }, one, early);
}

export const publicRest = {
  /** `rpc('archive_issues', {p_limit: 4})`: a function's answer as the anon role. */
  rpc<F extends keyof PublicFunctions>(fn: F, args?: Args<F>): Promise<RestResult<Returns<F>>> {
    return callRpc(fn, args, false);
  },
  /**
   * A function's single row (or null), as postgrest-js's `.rpc(…).maybeSingle()`; `early`: the
   * response to this very request if the page's HTML started it (lib/early-read.ts).
   */
  rpcOne<F extends keyof PublicFunctions>(
    fn: F,
    args?: Args<F>,
    early?: Promise<Response>,
  ): Promise<RestResult<Element<Returns<F>>>> {
    return callRpc(fn, args, true, early);
  },
  /**
   * `GET /rest/v1/<table>?<query>` with PostgREST's own parameters (`select`, `slug: 'eq.x'`,
   * `order`); `one` as maybeSingle(). The row type is the caller's: it names the columns it selects.
   */
  select<T>(
    table: keyof Database['public']['Tables'],
    query: Record<string, string>,
    one = false,
  ): Promise<RestResult<T>> {
    return rest<T>(`${table}?${new URLSearchParams(query).toString()}`, { method: 'GET' }, one);
  },
};

/**
 * Calls `handler` on every `event` broadcast on the public `topic`; returns the unsubscribe. The
 * Realtime client (lib/public-realtime.ts, Realtime alone) is loaded on demand as its own chunk,
 * so only pages that show something live ever download it.
 */
export function onBroadcast(topic: string, event: string, handler: () => void): () => void {
  let stopped = false;
  let stop: (() => void) | undefined;
  // Nothing live is urgent next to the page itself: Realtime's code is loaded once the browser is
  // idle, and the channel joined in a second idle task, so neither lengthens hydration's work.
  let cancel = whenIdle(() => {
    void import('./public-realtime').then(({ publicRealtime }) => {
      if (stopped) return;
      cancel = whenIdle(() => {
        const channel = publicRealtime
          .channel(topic)
          .on('broadcast', { event }, handler)
          .subscribe();
        stop = () => void publicRealtime.removeChannel(channel);
      });
    });
  });
  return () => {
    stopped = true;
    cancel();
    stop?.();
  };
}
