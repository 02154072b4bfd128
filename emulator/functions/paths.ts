// Maps `/functions/v1/{name}[/{sub-path}]` to a function name and the path the function itself sees.

export const FUNCTIONS_PREFIX = '/functions/v1';

/** Methods the hosted gateway forwards; anything else is 405 (contract §5.3). */
export const ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export function isAllowedMethod(method: string): boolean {
  return (ALLOWED_METHODS as readonly string[]).includes(method);
}

/**
 * Function folder names as the Supabase CLI accepts them (`supabase functions new` allows letters,
 * digits, `-` and `_`). Folders starting with `_` (such as `_shared`) hold shared code, not functions.
 */
const FUNCTION_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export function isFunctionName(name: string): boolean {
  return FUNCTION_NAME.test(name);
}

export interface FunctionRoute {
  /** The function's folder name. */
  name: string;
  /** Path and query the function sees: it keeps `/{name}` (contract §5.2), e.g. `/hello/sub?x=1`. */
  forwardPath: string;
}

/**
 * Splits a gateway URL into the function name and the forwarded path. Returns null when the URL
 * names no valid function (missing name, `_shared`, `..`), which the service answers with 404.
 */
export function routeFunction(url: URL): FunctionRoute | null {
  const { pathname } = url;
  if (pathname !== FUNCTIONS_PREFIX && !pathname.startsWith(FUNCTIONS_PREFIX + '/')) return null;
  const rest = pathname.slice(FUNCTIONS_PREFIX.length); // '' or '/name[/...]'
  const name = rest.split('/')[1] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    return null;
  }
  if (!isFunctionName(decoded)) return null;
  return { name: decoded, forwardPath: rest + url.search };
}
