// Bridges Node's http server to the gateway: its plain path where a service has one, else web Request/Response.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { methodNotAllowed as functionsMethodNotAllowed } from '../functions/errors.js';
import { addPlainCors } from './cors.js';
import type { GatewayHandler } from './gateway.js';
import { decodeUtf8, NodeHeaders, type PlainResponse } from './plain.js';
import { matchRoute } from './routes.js';

/**
 * Request bodies up to this size with a Content-Length are read into one Buffer before the
 * handler runs: a web stream around every small JSON body costs more than the body itself.
 * Larger or chunked bodies (storage uploads) stay streams.
 */
const BUFFER_REQUEST_LIMIT = 1024 * 1024;

function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else headers.set(name, value);
  }
  return headers;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const headers = toHeaders(req);
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', origin);
  if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers });
  const length = Number(req.headers['content-length'] ?? NaN);
  if (length <= BUFFER_REQUEST_LIMIT && !req.headers['transfer-encoding']) {
    return new Request(url, { method, headers, body: asBytes(await readBody(req)) });
  }
  return new Request(url, {
    method,
    headers,
    body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
    // Required by undici for streamed request bodies.
    duplex: 'half',
  } as RequestInit);
}

/** Resolves on the next macrotask: a body chunk that is not there by then is still being produced. */
const nextTurn = () => new Promise<'later'>((resolve) => setImmediate(resolve, 'later'));

async function writeResponse(res: ServerResponse, response: Response, method: string) {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  const status = response.statusText || undefined;
  if (!response.body || method === 'HEAD') {
    await response.body?.cancel();
    res.writeHead(response.status, status, headers);
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const first = await reader.read();
  // A body that was complete when the handler returned (a JSON string, a small Buffer) is written
  // with its headers in one res.end(); anything still being produced (SSE, storage downloads)
  // streams as it arrives, so waiting never holds back a chunk longer than one event-loop turn.
  const next = first.done ? Promise.resolve(first) : reader.read();
  const second = first.done ? first : await Promise.race([next, nextTurn()]);
  if (second !== 'later' && second.done) {
    const body = first.value ?? new Uint8Array(0);
    if (headers['content-length'] === undefined && !headers['transfer-encoding']) {
      headers['content-length'] = String(body.byteLength);
    }
    res.writeHead(response.status, status, headers);
    res.end(body);
    return;
  }
  res.writeHead(response.status, status, headers);
  if (first.value) res.write(first.value);
  let pending = next;
  let closed = false;
  res.on('close', () => {
    closed = true;
    void reader.cancel().catch(() => undefined);
  });
  for (;;) {
    const chunk = await pending;
    if (chunk.done || closed) break;
    if (!res.write(chunk.value)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
    pending = reader.read();
  }
  if (!closed) res.end();
}

/** Writes a PlainResponse as writeResponse writes a complete web Response. */
function writePlain(res: ServerResponse, response: PlainResponse, method: string) {
  if (response.body === null || method === 'HEAD') {
    res.writeHead(response.status, response.headers);
    res.end();
    return;
  }
  response.headers['content-length'] ??= String(Buffer.byteLength(response.body));
  res.writeHead(response.status, response.headers);
  res.end(response.body);
}

/** The gateway's plain path, or null when this request needs the web one. */
function tryPlain(
  handler: GatewayHandler,
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
): Promise<void> | null {
  // Bodies that would not be buffered for a web Request either (large, chunked) stay streams.
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] || Number(length ?? 0) > BUFFER_REQUEST_LIMIT) return null;
  const method = req.method ?? 'GET';
  let url: URL;
  try {
    url = new URL(req.url ?? '/', origin);
  } catch {
    return null; // The web path answers it as it always has.
  }
  const answer = handler.plain(
    {
      method,
      url,
      headers: new NodeHeaders(req.headers),
      text: async () => decodeUtf8(await readBody(req)),
    },
    req.socket.remoteAddress ?? '127.0.0.1',
  );
  return answer && answer.then((response) => writePlain(res, response, method));
}

/** Methods a web Request refuses to carry (fetch's forbidden methods). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * 405 for a forbidden method that the plain path did not answer (REST answers its own PGRST117
 * there), instead of building a Request that would throw. Under /functions/v1 it is the
 * functions gateway's own METHOD_NOT_ALLOWED (contract §5.3: only GET POST PUT PATCH DELETE
 * OPTIONS); elsewhere a Kong-style `{message}` with Allow and the gateway's CORS headers.
 */
function refuseMethod(req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  let pathname = '/';
  try {
    pathname = new URL(req.url ?? '/', origin).pathname;
  } catch {
    // An unparsable target still gets the gateway's 405.
  }
  const method = req.method ?? 'GET';
  req.resume(); // any body is not read
  if (matchRoute(pathname)?.service === 'functions') {
    return writeResponse(res, functionsMethodNotAllowed(), method);
  }
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  };
  const requestOrigin = req.headers.origin;
  addPlainCors(headers, typeof requestOrigin === 'string' ? requestOrigin : '*');
  writePlain(
    res,
    { status: 405, headers, body: JSON.stringify({ message: 'Method not allowed' }) },
    method,
  );
  return Promise.resolve();
}

export function nodeListener(handler: GatewayHandler, origin: () => string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const answered =
      tryPlain(handler, req, res, origin()) ??
      (FORBIDDEN_METHODS.has((req.method ?? '').toUpperCase())
        ? refuseMethod(req, res, origin())
        : webPath(handler, req, res, origin()));
    answered.catch((err) => {
      console.error('[gateway] failed to write response', err);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ code: 'internal', message: 'Internal server error' }));
    });
  };
}

function webPath(
  handler: GatewayHandler,
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
) {
  return toRequest(req, origin)
    .then((request) => handler(request, req.socket.remoteAddress ?? '127.0.0.1'))
    .then((response) => writeResponse(res, response, req.method ?? 'GET'));
}

/** A Buffer viewed as the plain Uint8Array a web Request body takes (no copy). */
function asBytes(buf: Buffer): Uint8Array<ArrayBuffer> {
  return new Uint8Array(buf.buffer as ArrayBuffer, buf.byteOffset, buf.byteLength);
}
