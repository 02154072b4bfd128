// The error responses the hosted functions gateway sends, with their `sb-error-code` header.
// Shapes: supabase.com/docs/guides/functions/error-codes and contract §5.2.

function errorJson(status: number, body: object, errorCode: string): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'sb-error-code': errorCode },
  });
}

/** Unknown function: hosted answers this (the CLI relay answers plain "Function not found"). */
export function notFound(): Response {
  return errorJson(
    404,
    { code: 'NOT_FOUND', message: 'Requested function was not found' },
    'NOT_FOUND',
  );
}

/** Methods other than GET POST PUT PATCH DELETE OPTIONS (docs: functions/status-codes, 405). */
export function methodNotAllowed(): Response {
  const res = errorJson(
    405,
    { code: 'METHOD_NOT_ALLOWED', message: 'Method not allowed' },
    'METHOD_NOT_ALLOWED',
  );
  res.headers.set('Allow', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
  return res;
}

/** verify_jwt failures: `{"code":401,"message":...}` with the reason in `sb-error-code` (§5.2). */
export function unauthorized(errorCode: string, message: string): Response {
  return errorJson(401, { code: 401, message }, errorCode);
}

/** Syntax error, throw at import, or no `Deno.serve`: the worker never came up. */
export function bootError(): Response {
  return errorJson(
    503,
    { code: 'BOOT_ERROR', message: 'Function failed to start (please check logs)' },
    'BOOT_ERROR',
  );
}

/** The worker died while handling the request (uncaught exception outside the handler, exit). */
export function workerError(): Response {
  return errorJson(
    500,
    { code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' },
    'WORKER_ERROR',
  );
}

/** The worker hit a resource limit (here: the 256 MB heap). Code and text as the CLI relay's. */
export function workerLimit(): Response {
  return errorJson(
    546,
    {
      code: 'WORKER_LIMIT',
      message: 'Worker failed to respond due to a resource limit (please check logs)',
    },
    'WORKER_LIMIT',
  );
}

/** No response headers within the idle limit (hosted: 150 s). */
export function idleTimeout(seconds: number): Response {
  return errorJson(
    504,
    { code: 'IDLE_TIMEOUT', message: `Request idle timeout limit (${seconds}s) reached` },
    'IDLE_TIMEOUT',
  );
}

/** A bug in the emulator itself: logged by the caller, nothing leaked. */
export function internalError(): Response {
  return errorJson(
    500,
    { code: 'INTERNAL_SERVER_ERROR', message: 'Request failed due to an internal server error' },
    'INTERNAL_SERVER_ERROR',
  );
}

/**
 * Hosted tags a function's own 5xx answers (including an exception thrown by the handler, which
 * Deno.serve turns into a plain-text 500) with `sb-error-code: EDGE_FUNCTION_ERROR`, body untouched.
 */
export function tagFunctionResponse(res: Response): Response {
  if (res.status >= 500 && !res.headers.has('sb-error-code')) {
    res.headers.set('sb-error-code', 'EDGE_FUNCTION_ERROR');
  }
  return res;
}
