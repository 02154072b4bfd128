// Bridges Node's http server to the gateway's web-standard Request/Response handler.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { GatewayHandler } from './gateway.js';

function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    // Required by undici for streamed request bodies.
    duplex: hasBody ? 'half' : undefined,
  } as RequestInit);
}

async function writeResponse(res: ServerResponse, response: Response, method: string) {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  res.writeHead(response.status, response.statusText || undefined, headers);
  if (!response.body || method === 'HEAD') {
    await response.body?.cancel();
    res.end();
    return;
  }
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
  await new Promise<void>((resolve, reject) => {
    body.on('error', reject);
    res.on('close', resolve);
    body.pipe(res);
  });
}

export function nodeListener(handler: GatewayHandler, origin: () => string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const request = toRequest(req, origin());
    handler(request, req.socket.remoteAddress ?? '127.0.0.1')
      .then((response) => writeResponse(res, response, request.method))
      .catch((err) => {
        console.error('[gateway] failed to write response', err);
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ code: 'internal', message: 'Internal server error' }));
      });
  };
}
