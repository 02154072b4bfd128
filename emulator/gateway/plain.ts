// Requests and answers without web Request/Response objects, for services whose bodies are small strings.
import type { IncomingHttpHeaders } from 'node:http';

/** What a service reads of request headers; web `Headers` has the same shape. */
export interface HeaderSource {
  /** The value, several joined by ", " as web Headers join them, or null. Names are case-blind. */
  get(name: string): string | null;
  /** Every header, names lowercase and in order, as web Headers iterate. */
  forEach(fn: (value: string, name: string) => void): void;
}

export interface PlainRequest {
  method: string;
  url: URL;
  headers: HeaderSource;
  /** The body decoded as UTF-8 (a leading BOM dropped), as Request.text() reads it. */
  text(): Promise<string>;
}

/** An answer whose body is already in memory. Header names are lowercase. */
export interface PlainResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/**
 * Node's parsed request headers behind the HeaderSource interface, with the gateway's changes
 * (the Authorization rewrite) on top: no copy into web Headers for every request.
 */
export class NodeHeaders implements HeaderSource {
  private readonly changed = new Map<string, string | null>();

  constructor(private readonly raw: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const key = name.toLowerCase();
    const change = this.changed.get(key);
    if (change !== undefined) return change;
    const value = this.raw[key];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  set(name: string, value: string | null): void {
    this.changed.set(name.toLowerCase(), value);
  }

  forEach(fn: (value: string, name: string) => void): void {
    const names = new Set([...Object.keys(this.raw), ...this.changed.keys()]);
    for (const name of [...names].sort()) {
      const change = this.changed.get(name);
      if (change === null) continue;
      if (change !== undefined) {
        fn(change, name);
        continue;
      }
      const value = this.raw[name];
      if (value === undefined) continue;
      // Web Headers hand out each Set-Cookie on its own and join any other repeated header.
      if (Array.isArray(value)) {
        if (name === 'set-cookie') value.forEach((v) => fn(v, name));
        else fn(value.join(', '), name);
      } else fn(value, name);
    }
  }
}

/** UTF-8 decoding as the Fetch standard's text() does it: a leading BOM is dropped. */
export function decodeUtf8(body: Buffer): string {
  const text = body.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A web Request seen as a PlainRequest (for callers of a service's web-standard handle()). */
export function plainFromWeb(req: Request): PlainRequest {
  return {
    method: req.method,
    url: new URL(req.url),
    headers: req.headers,
    text: () => req.text(),
  };
}

export function webFromPlain(res: PlainResponse): Response {
  return new Response(res.body, { status: res.status, headers: res.headers });
}

export function plainJson(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): PlainResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}
