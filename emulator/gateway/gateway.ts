// The API gateway: health, CORS, key → role rewrite, then hand-off to the service that owns the prefix.
import type { EmulatorKeys } from '../keys.js';
import { resolveAuthorization } from './credentials.js';
import { addPlainCors, preflightResponse, withCors } from './cors.js';
import { plainJson, type NodeHeaders, type PlainRequest, type PlainResponse } from './plain.js';
import { matchRoute } from './routes.js';
import type { GatewayContext, Service, ServiceName } from './types.js';

export interface GatewayOptions {
  keys: EmulatorKeys;
  services: Partial<Record<ServiceName, Service>>;
  log?: (message: string, err?: unknown) => void;
}

/** A request the node adapter received, its headers still Node's (see plain.ts). */
export interface NodePlainRequest extends PlainRequest {
  headers: NodeHeaders;
}

export interface GatewayHandler {
  (req: Request, remoteAddress: string): Promise<Response>;
  /**
   * The same gateway for a service with handlePlain: the answer without web Request/Response
   * objects, or null when the request needs the web path (no such service, health, preflights).
   */
  plain(req: NodePlainRequest, remoteAddress: string): Promise<PlainResponse> | null;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/**
 * The request with one header replaced. The node adapter's requests have mutable headers, so they
 * are changed in place (copying a Request costs more than the REST work it carries); a request with
 * immutable headers is copied.
 */
function withHeader(req: Request, name: string, value: string | null): Request {
  let headers = req.headers;
  let copy = false;
  try {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  } catch {
    headers = new Headers(req.headers);
    if (value === null) headers.delete(name);
    else headers.set(name, value);
    copy = true;
  }
  return copy ? new Request(req, { headers }) : req;
}

export function createGateway({
  keys,
  services,
  log = console.error,
}: GatewayOptions): GatewayHandler {
  async function gateway(req: Request, remoteAddress: string): Promise<Response> {
    const url = new URL(req.url);
    if (url.pathname === '/health' || url.pathname === '/health/') {
      return withCors(req, json(200, { status: 'ok' }));
    }
    const route = matchRoute(url.pathname);
    if (!route) {
      // Kong's answer for an unknown path.
      return withCors(req, json(404, { message: 'no Route matched with those values' }));
    }
    if (route.gatewayCors && req.method === 'OPTIONS') return preflightResponse(req);

    const service = services[route.service];
    if (!service) {
      const res = json(501, {
        code: 'not_implemented',
        message: `The emulator does not implement ${route.prefix} yet (see emulator/README.md).`,
      });
      return route.gatewayCors ? withCors(req, res) : res;
    }

    const apikey = req.headers.get('apikey') ?? url.searchParams.get('apikey');
    let forwarded = req;
    if (route.rewriteAuthorization) {
      const current = req.headers.get('authorization');
      const authorization = resolveAuthorization(current, apikey, keys);
      if (authorization !== current) forwarded = withHeader(req, 'authorization', authorization);
    }
    const ctx: GatewayContext = { apikey, remoteAddress };
    let res: Response;
    try {
      res = await service.handle(forwarded, ctx);
    } catch (err) {
      // Known errors carry their own response inside each service; anything reaching here is a bug.
      log(`[gateway] ${req.method} ${url.pathname} failed`, err);
      res = json(500, { code: 'internal', message: 'Internal server error' });
    }
    return route.gatewayCors ? withCors(req, res) : res;
  }

  // The web path above, step for step, for services that answer PlainResponses.
  function plain(req: NodePlainRequest, remoteAddress: string): Promise<PlainResponse> | null {
    const route = matchRoute(req.url.pathname);
    if (!route || (route.gatewayCors && req.method === 'OPTIONS')) return null;
    const service = services[route.service];
    if (!service?.handlePlain) return null;
    const handlePlain = service.handlePlain.bind(service);
    return (async () => {
      const apikey = req.headers.get('apikey') ?? req.url.searchParams.get('apikey');
      if (route.rewriteAuthorization) {
        const current = req.headers.get('authorization');
        const authorization = resolveAuthorization(current, apikey, keys);
        if (authorization !== current) req.headers.set('authorization', authorization);
      }
      let res: PlainResponse;
      try {
        res = await handlePlain(req, { apikey, remoteAddress });
      } catch (err) {
        log(`[gateway] ${req.method} ${req.url.pathname} failed`, err);
        res = plainJson(500, { code: 'internal', message: 'Internal server error' });
      }
      if (route.gatewayCors) addPlainCors(res.headers, req.headers.get('origin') ?? '*');
      return res;
    })();
  }

  return Object.assign(gateway, { plain });
}
