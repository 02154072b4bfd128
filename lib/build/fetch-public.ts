// Build-time reads of public data (getStaticProps): Supabase REST with the publishable key, or null
// when the build cannot reach it, so a build without a reachable project still succeeds.
import { SUPABASE_PUBLISHABLE_KEY, SUPABASE_URL } from '../config';

export interface FetchAtBuildOptions {
  /** GET by default; POST for an RPC that takes a JSON body. */
  method?: 'GET' | 'POST';
  /** JSON body of a POST. */
  body?: unknown;
  /**
   * Give up after this long: a build never hangs on an unreachable host. Default 4 s, or 30 s when
   * the data is required (a busy CI machine answering many page workers at once).
   */
  timeoutMs?: number;
}

/**
 * Set to `1` by scripts/build-site.ts when a build must contain the project's data (the e2e build,
 * a CI deploy): then an unreachable project fails the build instead of falling back.
 */
export const REQUIRE_DATA_ENV = 'POSTBOX_BUILD_REQUIRE_DATA';

const DEFAULT_TIMEOUT_MS = 4000;
const REQUIRED_TIMEOUT_MS = 30_000;

/** One answer per path and body per build worker: every page reads the same identity. */
const cache = new Map<string, Promise<unknown>>();
/** Paths already reported as unreachable, so the build log says it once, not once per page. */
const reported = new Set<string>();

function headers(): Record<string, string> {
  const out: Record<string, string> = {
    apikey: SUPABASE_PUBLISHABLE_KEY,
    Accept: 'application/json',
  };
  // A legacy anon key is a JWT and goes in Authorization too; a publishable key (sb_publishable_…)
  // is not a JWT, and the gateway maps it to the anon role from `apikey` alone.
  if (SUPABASE_PUBLISHABLE_KEY.split('.').length === 3) {
    out.Authorization = `Bearer ${SUPABASE_PUBLISHABLE_KEY}`;
  }
  return out;
}

function report(path: string, reason: string): void {
  const message =
    `[postbox build] could not read ${path} from ${SUPABASE_URL} (${reason}): ` +
    'pages are exported without it and browsers read it when they load.';
  if (process.env[REQUIRE_DATA_ENV] === '1') {
    throw new Error(`${message} ${REQUIRE_DATA_ENV}=1 requires the data.`);
  }
  if (!reported.has(path)) {
    reported.add(path);
    console.warn(message);
  }
}

async function read<T>(path: string, options: FetchAtBuildOptions): Promise<T | null> {
  const url = `${SUPABASE_URL}/${path.replace(/^\/+/, '')}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: options.method ?? 'GET',
      headers: {
        ...headers(),
        ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      signal: AbortSignal.timeout(
        options.timeoutMs ??
          (process.env[REQUIRE_DATA_ENV] === '1' ? REQUIRED_TIMEOUT_MS : DEFAULT_TIMEOUT_MS),
      ),
    });
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    report(path, name === 'TimeoutError' ? 'timed out' : 'unreachable');
    return null;
  }
  if (!res.ok) {
    report(path, `HTTP ${res.status}`);
    return null;
  }
  try {
    return (await res.json()) as T;
  } catch {
    report(path, 'the answer is not JSON');
    return null;
  }
}

/**
 * `fetchAtBuild<Row[]>('rest/v1/lists?select=slug,name&visibility=eq.public')`: the JSON answer of
 * a path under the Supabase URL, read as the anon role, or null when the project cannot be reached
 * or answers an error (logged once per path). Never throws unless POSTBOX_BUILD_REQUIRE_DATA=1.
 */
export function fetchAtBuild<T>(
  path: string,
  options: FetchAtBuildOptions = {},
): Promise<T | null> {
  const key = `${options.method ?? 'GET'} ${path} ${JSON.stringify(options.body ?? null)}`;
  let pending = cache.get(key) as Promise<T | null> | undefined;
  if (!pending) {
    pending = read<T>(path, options);
    cache.set(key, pending);
  }
  return pending;
}

/** Forgets cached answers (unit tests). */
export function clearBuildCache(): void {
  cache.clear();
  reported.clear();
}
