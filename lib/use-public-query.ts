// The public pages' data hook: the part of SWR they use, in about 1 KB of gzip instead of SWR's
// ~5.6 KB (issue 22's first-load budgets). One cache entry per key shared by every component, the
// build's data as fallback (PublicFallback in pages/_app.tsx), one request at a time per key,
// revalidation on mount (once the browser is idle when the build's data is already shown), focus,
// reconnect and an optional interval, retries after a failure with SWR's back-off, and mutate.
// The team's pages keep SWR (lib/use-query.ts); keys, errors (a thrown QueryError, never
// `undefined` data that looks like "empty") and options mean the same here.
import { dequal } from 'dequal';
import { createContext, useCallback, useContext, useEffect, useReducer, useRef } from 'react';
import { toQueryError, unwrap, type QueryError, type SupabaseResult } from './query';
import { whenIdle } from './when-idle';

export interface PublicQueryConfig {
  /** Read again when the tab comes back into view (default true, at most every 5 s). */
  revalidateOnFocus?: boolean;
  /** Read again when the browser comes back online (default true). */
  revalidateOnReconnect?: boolean;
  /** Read again on mount even when data is already there (default true). */
  revalidateIfStale?: boolean;
  /** Retry a failed read with back-off while a component shows it (default true). */
  shouldRetryOnError?: boolean;
  /** Read again every so many ms while the page is visible (default off). */
  refreshInterval?: number;
}

export interface PublicQuery<T> {
  data: T | null | undefined;
  error: QueryError | undefined;
  isLoading: boolean;
  /** A read is on its way (as of this render: starting a read renders nothing again). */
  isValidating: boolean;
  /** Reads again (no argument), or sets the data (`mutate(data, { revalidate: false })`). */
  mutate: (data?: T | null, options?: { revalidate?: boolean }) => Promise<T | null | undefined>;
}

type Fetcher = () => PromiseLike<SupabaseResult<unknown>>;

interface Entry {
  data?: unknown;
  error?: QueryError;
  inFlight?: Promise<unknown>;
  /** When the last read ended (ms), for deduplication and the focus throttle. */
  at: number;
  fetcher?: Fetcher;
  listeners: Set<() => void>;
}

/** SWR's defaults: dedupingInterval, focusThrottleInterval, errorRetryInterval. */
const DEDUPE_MS = 2000;
const FOCUS_THROTTLE_MS = 5000;
const RETRY_MS = 5000;

const cache = new Map<string, Entry>();

function entryOf(key: string): Entry {
  let entry = cache.get(key);
  if (!entry) {
    entry = { at: 0, listeners: new Set() };
    cache.set(key, entry);
  }
  return entry;
}

function notify(entry: Entry): void {
  for (const listener of entry.listeners) listener();
}

/**
 * Reads `key` again with its fetcher; joins a read already on its way. Components render again only
 * when what they show changed: an answer equal to the data shown (by content, with dequal, as SWR
 * compares) keeps it, the same reference, so a page whose data did not change since the build does
 * no work after hydration.
 */
function revalidate(key: string): Promise<unknown> {
  const entry = entryOf(key);
  const fetcher = entry.fetcher;
  if (!fetcher) return Promise.resolve(entry.data);
  entry.inFlight ??= (async () => {
    let changed: boolean;
    try {
      const next = unwrap(await fetcher());
      changed = Boolean(entry.error) || !('data' in entry) || !dequal(entry.data, next);
      if (changed) entry.data = next;
      entry.error = undefined;
    } catch (error) {
      changed = true;
      entry.error = toQueryError(error);
    } finally {
      entry.inFlight = undefined;
      entry.at = Date.now();
    }
    if (changed) notify(entry);
    return entry.data;
  })();
  return entry.inFlight;
}

/** Reads `key` again in every component showing it (a live update from Realtime). */
export function mutatePublic(key: string): Promise<unknown> {
  return cache.get(key)?.listeners.size ? revalidate(key) : Promise.resolve(undefined);
}

/** On focus and reconnect, the keys whose components asked for it. */
const onFocus = new Map<string, number>();
const onReconnect = new Map<string, number>();
let listening = false;

function count(map: Map<string, number>, key: string, by: number): void {
  const n = (map.get(key) ?? 0) + by;
  if (n > 0) map.set(key, n);
  else map.delete(key);
}

function listen(): void {
  if (listening) return;
  listening = true;
  const focus = () => {
    if (document.visibilityState !== 'visible') return;
    for (const key of onFocus.keys()) {
      const entry = entryOf(key);
      if (Date.now() - entry.at > FOCUS_THROTTLE_MS) void revalidate(key);
    }
  };
  window.addEventListener('focus', focus);
  document.addEventListener('visibilitychange', focus);
  window.addEventListener('online', () => {
    for (const key of onReconnect.keys()) void revalidate(key);
  });
}

/** The data the build read, by key (lib/build/public-props.ts), provided by pages/_app.tsx. */
export const PublicFallbackContext = createContext<Record<string, unknown>>({});

/**
 * `usePublicQuery(queryKey('public-lists'), () => publicRest.select(…))`. A `null` key skips the
 * read (e.g. until a query-string parameter is known).
 */
export function usePublicQuery<T>(
  key: string | null,
  fetcher: () => PromiseLike<SupabaseResult<T>>,
  config: PublicQueryConfig = {},
): PublicQuery<T> {
  const fallback = useContext(PublicFallbackContext);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const entry = key ? cache.get(key) : undefined;
  if (key) entryOf(key).fetcher = fetcher;
  // The cache only fills in effects, so the first render in the browser matches the exported HTML.
  const data = (entry && 'data' in entry ? entry.data : key ? fallback[key] : undefined) as
    T | null | undefined;
  const error = entry?.error;
  const settings = useRef(config);
  settings.current = config;

  useEffect(() => {
    if (!key) return;
    const current = entryOf(key);
    current.listeners.add(rerender);
    // The build's data is what the component shows: the cache starts from it, so an equal answer
    // renders nothing again.
    if (!('data' in current) && !current.error && fallback[key] !== undefined) {
      current.data = fallback[key];
    }
    const { revalidateOnFocus, revalidateOnReconnect, revalidateIfStale, refreshInterval } =
      settings.current;
    const known = 'data' in current || fallback[key] !== undefined;
    const fresh = !current.error && Date.now() - current.at < DEDUPE_MS;
    // Nothing shown yet: read now. Data shown (the build's, usually): read again once the browser
    // is idle, so hydration's effects stay a short task (lib/when-idle.ts).
    let cancelIdle: (() => void) | undefined;
    if (!known) void revalidate(key);
    else if (revalidateIfStale !== false && !fresh) {
      cancelIdle = whenIdle(() => void revalidate(key));
    }
    listen();
    if (revalidateOnFocus !== false) count(onFocus, key, 1);
    if (revalidateOnReconnect !== false) count(onReconnect, key, 1);
    const timer = refreshInterval
      ? setInterval(() => {
          if (document.visibilityState === 'visible') void revalidate(key);
        }, refreshInterval)
      : undefined;
    return () => {
      cancelIdle?.();
      current.listeners.delete(rerender);
      if (revalidateOnFocus !== false) count(onFocus, key, -1);
      if (revalidateOnReconnect !== false) count(onReconnect, key, -1);
      clearInterval(timer);
    };
    // The fallback is the page's own, fixed for its lifetime; the options are read when mounting.
  }, [key, fallback]);

  // After a failure, SWR's exponential back-off: ~5 s, 10 s, 20 s… (at most 8 doublings).
  const retries = useRef(0);
  useEffect(() => {
    if (!key || !error) {
      retries.current = 0;
      return;
    }
    if (settings.current.shouldRetryOnError === false) return;
    const delay = (Math.random() + 0.5) * (1 << Math.min(retries.current, 8)) * RETRY_MS;
    const timer = setTimeout(() => {
      retries.current += 1;
      void revalidate(key);
    }, delay);
    return () => clearTimeout(timer);
  }, [key, error]);

  const mutate = useCallback(
    async (next?: T | null, options: { revalidate?: boolean } = {}) => {
      if (!key) return undefined;
      if (next !== undefined) {
        const current = entryOf(key);
        current.data = next;
        current.error = undefined;
        notify(current);
        if (options.revalidate === false) return next;
      }
      return (await revalidate(key)) as T | null | undefined;
    },
    [key],
  );

  return {
    data,
    error,
    isLoading: Boolean(key) && data === undefined && !error,
    isValidating: Boolean(entry?.inFlight),
    mutate,
  };
}
