// pg_net's background worker in the emulator process: sends queued requests, records the responses.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Db } from '../db/types.js';

interface QueuedRequest {
  id: string;
  method: string;
  url: string;
  timeout_milliseconds: number;
  headers: Record<string, unknown> | null;
  body: string | null;
}

export interface NetWorker {
  stop(): Promise<void>;
}

/** pg_net's User-Agent, sent with every request that has headers (core.c). */
const USER_AGENT = 'pg_net/0.20.0';
/**
 * Names the database uses for the API gateway inside the Supabase CLI's Docker network (the Kong
 * container's aliases, port 8000). The emulator has no such network, so requests to them go to its
 * own gateway: a migration can name `http://kong:8000` and reach whichever emulator runs it.
 */
const INTERNAL_GATEWAY_HOSTS = new Set(['kong:8000', 'api.supabase.internal:8000']);

/** `url` with an internal gateway origin replaced by `gatewayUrl`'s (when one is given). */
export function resolveInternalUrl(url: URL, gatewayUrl: string | undefined): URL {
  if (!gatewayUrl || url.protocol !== 'http:' || !INTERNAL_GATEWAY_HOSTS.has(url.host)) return url;
  const gateway = new URL(gatewayUrl);
  const resolved = new URL(url.href);
  resolved.protocol = gateway.protocol;
  resolved.host = gateway.host;
  return resolved;
}

/** pg_net.batch_size and pg_net.ttl defaults. */
const BATCH_SIZE = 200;
const TTL = '6 hours';

/** curl_easy_strerror() for the failures node:http reports, as pg_net stores them in error_msg. */
function curlError(err: unknown): string {
  if (err instanceof UnsupportedProtocol) return 'Unsupported protocol';
  const e = err as { code?: string; cause?: { code?: string } };
  switch (e.code ?? e.cause?.code) {
    case 'ECONNREFUSED':
      return "Couldn't connect to server";
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return "Couldn't resolve host name";
    case 'ECONNRESET':
      return 'Failure when receiving data from the peer';
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return 'SSL peer certificate or SSH remote key was not OK';
    default:
      return 'Failure when receiving data from the peer';
  }
}

/** pg_net's detailed_timeout_strerror(); DNS and handshake are not timed apart here. */
function timeoutMessage(timeoutMs: number, elapsedMs: number): string {
  const f = (n: number) => n.toFixed(6);
  return (
    `Timeout of ${timeoutMs} ms reached. Total time: ${f(elapsedMs)} ms ` +
    `(DNS time: ${f(0)} ms, TCP/SSL handshake time: ${f(0)} ms, ` +
    `HTTP Request/Response time: ${f(elapsedMs)} ms)`
  );
}

class UnsupportedProtocol extends Error {}

/** curl's CURLOPT_MAXREDIRS default (libcurl ≥ 8.3). */
const MAX_REDIRECTS = 30;

interface Exchange {
  status: number;
  /** Lower-cased names; a repeated header keeps its last value, as jsonb keeps the last key. */
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * One HTTP request as libcurl sends it for pg_net: Host, libcurl's any-type Accept unless the
 * caller set one, the caller's headers (pg_net's User-Agent among them), and for a body its Content-Length
 * and libcurl's default form Content-Type when the caller gave none. No Accept-Encoding, so the
 * body comes back as the server sent it, undecoded; no Connection header.
 */
function sendOnce(
  url: URL,
  method: string,
  headers: ReadonlyArray<readonly [string, string]>,
  body: string | null,
  signal: AbortSignal,
): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(url, { method, signal, agent: false });
    const given = new Set(headers.map(([name]) => name.toLowerCase()));
    req.setHeader('Host', url.host);
    // A header given with an empty value removes libcurl's own (curl_slist semantics).
    const sent = headers.filter(([, value]) => value.trim() !== '');
    if (!given.has('accept')) req.setHeader('Accept', '*/*');
    const grouped = new Map<string, { name: string; values: string[] }>();
    for (const [name, value] of sent) {
      const key = name.toLowerCase();
      const entry = grouped.get(key) ?? { name, values: [] };
      entry.values.push(value);
      grouped.set(key, entry);
    }
    for (const { name, values } of grouped.values()) {
      req.setHeader(name, values.length === 1 ? values[0]! : values);
    }
    if (body !== null) {
      if (!given.has('content-length')) req.setHeader('Content-Length', Buffer.byteLength(body));
      if (!given.has('content-type')) {
        req.setHeader('Content-Type', 'application/x-www-form-urlencoded');
      }
    }
    req.removeHeader('Connection');
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const received: Record<string, string> = {};
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
          received[res.rawHeaders[i]!.toLowerCase()] = res.rawHeaders[i + 1]!;
        }
        resolve({ status: res.statusCode ?? 0, headers: received, body: Buffer.concat(chunks) });
      });
    });
    req.end(body ?? undefined);
  });
}

/**
 * Follows redirects as CURLOPT_FOLLOWLOCATION does: 301/302/303 turn a POST into a bodiless GET
 * and drop any other method's body, 307/308 repeat the request; Authorization and Cookie go to the
 * first origin only.
 */
async function exchange(
  start: URL,
  method: string,
  headers: ReadonlyArray<readonly [string, string]>,
  body: string | null,
  signal: AbortSignal,
): Promise<Exchange> {
  let url = start;
  let current = { method, headers, body };
  for (let hops = 0; ; hops++) {
    const res = await sendOnce(url, current.method, current.headers, current.body, signal);
    const location = res.headers.location;
    if (![301, 302, 303, 307, 308].includes(res.status) || !location || hops >= MAX_REDIRECTS) {
      return res;
    }
    const next = new URL(location, url);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new UnsupportedProtocol();
    if (res.status <= 303) {
      current = {
        method: current.method === 'POST' ? 'GET' : current.method,
        headers: current.headers,
        body: null,
      };
    }
    if (next.origin !== start.origin) {
      current = {
        ...current,
        headers: current.headers.filter(
          ([name]) => !['authorization', 'cookie'].includes(name.toLowerCase()),
        ),
      };
    }
    url = next;
  }
}

/**
 * As pg_net: requests are taken off net.http_request_queue in id order (deleted as they are
 * taken), sent concurrently with redirects followed and the row's timeout covering the whole
 * exchange, and each outcome becomes one net._http_response row. Only committed requests are
 * seen, so a rolled-back transaction sends nothing. Woken by net.wake()'s NOTIFY, with a poll
 * as a fallback; responses older than pg_net.ttl are deleted.
 */
export function startNetWorker(opts: {
  db: Db;
  /** This emulator's gateway, which `http://kong:8000` stands for. */
  gatewayUrl?: string;
  pollMs?: number;
  log?: (message: string) => void;
}): NetWorker {
  const { db } = opts;
  const log = opts.log ?? (() => undefined);
  const pollMs = opts.pollMs ?? 5000;
  const inflight = new Set<Promise<void>>();
  const aborts = new Set<AbortController>();
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let draining: Promise<void> | null = null;
  let again = false;
  let lastExpiry = 0;
  let unlisten: (() => Promise<void>) | null = null;

  const record = (id: string, values: Record<string, unknown>) =>
    db.query(
      `insert into net._http_response (id, status_code, content, headers, content_type, timed_out, error_msg)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [
        id,
        values.status ?? null,
        values.content ?? null,
        values.headers === undefined ? null : JSON.stringify(values.headers),
        values.contentType ?? null,
        values.timedOut ?? null,
        values.error ?? null,
      ],
    );

  const send = async (req: QueuedRequest): Promise<void> => {
    const abort = new AbortController();
    aborts.add(abort);
    const started = performance.now();
    const timer = setTimeout(() => abort.abort(), req.timeout_milliseconds);
    try {
      const url = resolveInternalUrl(new URL(req.url), opts.gatewayUrl);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        await record(req.id, { error: 'Unsupported protocol', timedOut: false });
        return;
      }
      // jsonb values that are not strings are sent as their JSON text, as jsonb_each_text gives them.
      const headers: Array<[string, string]> = Object.entries(req.headers ?? {}).map(([k, v]) => [
        k,
        typeof v === 'string' ? v : JSON.stringify(v),
      ]);
      if (req.headers) headers.push(['User-Agent', USER_AGENT]);
      const method = req.method.toUpperCase();
      // A POST without a body is sent with Content-Length: 0 (CURLOPT_POSTFIELDSIZE 0).
      const body = req.body ?? (method === 'POST' ? '' : null);
      const response = await exchange(url, method, headers, body, abort.signal);
      const content = response.body.toString('utf8');
      await record(req.id, {
        status: response.status,
        content: content === '' ? null : content,
        headers: response.headers,
        contentType: response.headers['content-type'] ?? null,
        timedOut: false,
      });
    } catch (err) {
      if (stopped) return;
      if (abort.signal.aborted) {
        const elapsed = performance.now() - started;
        await record(req.id, {
          timedOut: true,
          error: timeoutMessage(req.timeout_milliseconds, elapsed),
        });
      } else if (err instanceof TypeError && /Invalid URL/i.test(err.message)) {
        await record(req.id, {
          timedOut: false,
          error: 'URL using bad/illegal format or missing URL',
        });
      } else {
        await record(req.id, { timedOut: false, error: curlError(err) });
      }
    } finally {
      clearTimeout(timer);
      aborts.delete(abort);
    }
  };

  const drainOnce = async () => {
    const { rows } = await db.query<QueuedRequest>(
      `with rows as (select id from net.http_request_queue order by id limit $1)
       delete from net.http_request_queue q using rows where q.id = rows.id
       returning q.id, q.method, q.url, q.timeout_milliseconds, q.headers,
         convert_from(q.body, 'UTF8') as body`,
      [BATCH_SIZE],
    );
    for (const req of rows) {
      const p = send(req)
        .catch((err) => {
          if (!stopped)
            log(`pg_net request ${req.id} could not be recorded: ${(err as Error).message}`);
        })
        .finally(() => inflight.delete(p));
      inflight.add(p);
    }
    if (Date.now() - lastExpiry > 60_000) {
      lastExpiry = Date.now();
      await db.query(`delete from net._http_response where created < now() - $1::interval`, [TTL]);
    }
    return rows.length;
  };

  // One drain at a time; a wake-up during a drain asks for another pass.
  const wake = () => {
    if (stopped) return;
    if (draining) {
      again = true;
      return;
    }
    draining = (async () => {
      do {
        again = false;
        if ((await drainOnce()) === BATCH_SIZE) again = true;
      } while (again && !stopped);
    })()
      .catch((err) => log(`pg_net worker failed: ${(err as Error).message}`))
      .finally(() => {
        draining = null;
      });
  };

  const poll = () => {
    wake();
    if (!stopped) timer = setTimeout(poll, pollMs);
  };
  void db
    .listen('postbox_pg_net', wake)
    .then((off) => {
      if (stopped) return off();
      unlisten = off;
    })
    .catch((err) => log(`pg_net worker cannot listen: ${(err as Error).message}`));
  poll();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      for (const abort of aborts) abort.abort();
      await draining;
      await Promise.all([...inflight]);
      if (unlisten) await unlisten();
    },
  };
}
