// CORS as the local gateway answers it (contract §0.4); functions answer their own preflights (§5.4).

const ALLOW_METHODS = 'GET,POST,PUT,PATCH,DELETE,OPTIONS,HEAD';
const DEFAULT_ALLOW_HEADERS = [
  'authorization',
  'apikey',
  'x-client-info',
  'content-type',
  'accept',
  'accept-profile',
  'content-profile',
  'prefer',
  'range',
  'x-upsert',
  'x-metadata',
  'cache-control',
  'x-supabase-api-version',
  'x-retry-count',
  'x-region',
  'traceparent',
  'tracestate',
  'baggage',
].join(', ');
const EXPOSE_HEADERS = [
  'Content-Range',
  'X-Total-Count',
  'Link',
  'X-Supabase-Api-Version',
  'Content-Disposition',
  'Content-Length',
  'ETag',
  'x-relay-error',
  'sb-error-code',
  'x-sb-error-code',
].join(', ');

/** Answer to an OPTIONS preflight on a gateway-handled prefix. */
export function preflightResponse(req: Request): Response {
  const headers = new Headers({
    'Access-Control-Allow-Origin': req.headers.get('origin') ?? '*',
    'Access-Control-Allow-Methods': ALLOW_METHODS,
    'Access-Control-Allow-Headers':
      req.headers.get('access-control-request-headers') ?? DEFAULT_ALLOW_HEADERS,
    'Access-Control-Max-Age': '3600',
    'Access-Control-Allow-Credentials': 'true',
    Vary: 'Origin',
  });
  return new Response(null, { status: 204, headers });
}

/** Adds the CORS headers a browser needs to read a real response. */
export function withCors(req: Request, res: Response): Response {
  const origin = req.headers.get('origin') ?? '*';
  try {
    // Responses a service built itself have mutable headers: add to them rather than copy the
    // whole Response (a measurable share of a REST round trip).
    addCors(res.headers, origin);
    return res;
  } catch {
    // Immutable headers (a Response from fetch or Response.error()): copy.
    const headers = new Headers(res.headers);
    addCors(headers, origin);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}

function addCors(headers: Headers, origin: string): void {
  headers.set('Access-Control-Allow-Origin', origin);
  headers.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
  headers.set('Access-Control-Allow-Credentials', 'true');
  headers.append('Vary', 'Origin');
}

/** addCors for a PlainResponse (lowercase names; Vary appended as Headers.append joins it). */
export function addPlainCors(headers: Record<string, string>, origin: string): void {
  headers['access-control-allow-origin'] = origin;
  headers['access-control-expose-headers'] = EXPOSE_HEADERS;
  headers['access-control-allow-credentials'] = 'true';
  headers.vary = headers.vary ? `${headers.vary}, Origin` : 'Origin';
}
