// Forwards a client request to a function process over HTTP and streams the answer back.
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

/** The function process went away before answering (crash, exit, kill). */
export class WorkerGoneError extends Error {}
/** No response headers within the idle limit. */
export class IdleTimeoutError extends Error {}

// Hop-by-hop headers (RFC 9110 §7.6.1) belong to one connection and are not forwarded.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

export interface ForwardOptions {
  port: number;
  /** Path and query the function sees, e.g. `/hello/sub?x=1`. */
  path: string;
  remoteAddress: string;
  idleTimeoutMs: number;
  agent: Agent;
}

/**
 * Client headers pass through unchanged (contract §5.2), `Host` stays the gateway's so the
 * function's `req.url` is `http://<gateway host>/<name>/...`, and `x-forwarded-*` say who asked.
 */
function forwardedHeaders(req: Request, remoteAddress: string): Record<string, string> {
  const url = new URL(req.url);
  const headers: Record<string, string> = {};
  req.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name)) headers[name] = value;
  });
  headers.host = url.host;
  const priorFor = req.headers.get('x-forwarded-for');
  headers['x-forwarded-for'] = priorFor ? `${priorFor}, ${remoteAddress}` : remoteAddress;
  headers['x-forwarded-host'] = req.headers.get('x-forwarded-host') ?? url.host;
  headers['x-forwarded-proto'] = req.headers.get('x-forwarded-proto') ?? url.protocol.slice(0, -1);
  return headers;
}

/**
 * Hosted serves a function's `text/html` answer to a GET as `text/plain` (parameters such as the
 * charset kept), so an edge function cannot host web pages (docs: functions/limits).
 */
function plainInsteadOfHtml(headers: Headers, method: string): void {
  const type = headers.get('content-type');
  if (method !== 'GET' || !type || !/^\s*text\/html\s*(;|$)/i.test(type)) return;
  headers.set('content-type', type.replace(/^\s*text\/html/i, 'text/plain'));
}

function toResponse(res: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    const name = res.rawHeaders[i]!;
    if (!HOP_BY_HOP.has(name.toLowerCase())) headers.append(name, res.rawHeaders[i + 1]!);
  }
  plainInsteadOfHtml(headers, method);
  const status = res.statusCode ?? 502;
  const nullBody = status === 204 || status === 304 || (status >= 100 && status < 200);
  if (nullBody) res.resume();
  const body = nullBody ? null : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: res.statusMessage, headers });
}

/** Sends `req` to the function listening on `port`; the request body is streamed, not buffered. */
export function forwardToWorker(req: Request, opts: ForwardOptions): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const outgoing = httpRequest({
      host: '127.0.0.1',
      port: opts.port,
      method: req.method,
      path: opts.path,
      headers: forwardedHeaders(req, opts.remoteAddress),
      agent: opts.agent,
    });
    const timer = setTimeout(() => {
      reject(new IdleTimeoutError(`no response within ${opts.idleTimeoutMs} ms`));
      outgoing.destroy();
    }, opts.idleTimeoutMs);
    outgoing.on('response', (res) => {
      clearTimeout(timer);
      resolve(toResponse(res, req.method));
    });
    outgoing.on('error', (err) => {
      clearTimeout(timer);
      reject(new WorkerGoneError(err.message));
    });
    if (req.body) {
      const body = Readable.fromWeb(req.body as unknown as NodeReadableStream<Uint8Array>);
      body.on('error', (err) => outgoing.destroy(err));
      body.pipe(outgoing);
    } else {
      outgoing.end();
    }
  });
}
