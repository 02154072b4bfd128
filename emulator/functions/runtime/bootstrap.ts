// Runs inside Deno: boots one edge function as Supabase's edge runtime does, on a port the emulator reads back.
//
// The function module calls `Deno.serve(handler)` (or exports `default { fetch }`). We replace
// `Deno.serve` before importing it so the handler listens on 127.0.0.1 at a free port, whatever
// options it passed, then print one readiness line the parent process waits for. Any failure
// before that line (syntax error, throw at import, no Deno.serve) exits non-zero: a boot error.
// This file is plain Deno code; Node never runs it, so it declares the little of Deno it uses.

type Handler = (req: Request, info: unknown) => Response | Promise<Response>;

interface ServeOptions {
  port?: number;
  hostname?: string;
  signal?: AbortSignal;
  handler?: Handler;
  onListen?: (addr: { port: number; hostname: string }) => void;
  onError?: (error: unknown) => Response | Promise<Response>;
}

interface DenoNamespace {
  serve(options: ServeOptions | Handler, handler?: Handler): unknown;
  stdin: { read(buffer: Uint8Array): Promise<number | null> };
  env: { get(name: string): string | undefined; delete(name: string): void };
  exit(code: number): never;
}

declare const Deno: DenoNamespace;

const BOOT_VARIABLE = 'POSTBOX_INTERNAL_FUNCTION_BOOT';
/** How long a module may take after import to call Deno.serve (e.g. from a resolved promise). */
const SERVE_GRACE_MS = 1000;

const boot = JSON.parse(Deno.env.get(BOOT_VARIABLE) ?? 'null') as {
  entry: string;
  token: string;
} | null;
if (!boot) {
  console.error(`bootstrap: ${BOOT_VARIABLE} is not set`);
  Deno.exit(70);
}
// The function must not see the emulator's plumbing, nor the host's HOME and PATH (the CLI strips
// them too; Deno has already located its cache, and functions cannot run programs anyway).
for (const name of [BOOT_VARIABLE, 'HOME', 'PATH']) Deno.env.delete(name);

// The parent holds our stdin open; EOF means the emulator is gone (even killed with SIGKILL), so go too.
void (async () => {
  const buffer = new Uint8Array(64);
  while ((await Deno.stdin.read(buffer)) !== null);
  Deno.exit(0);
})();

// `EdgeRuntime.waitUntil(promise)` lets hosted functions finish work after responding (docs:
// functions/background-tasks). This process outlives the request, so the promise just runs on.
(globalThis as { EdgeRuntime?: unknown }).EdgeRuntime = {
  waitUntil(promise: Promise<unknown>) {
    Promise.resolve(promise).catch((err) => console.error('waitUntil task failed:', err));
    return promise;
  },
};

// Hosted Supabase refuses outgoing connections to the SMTP ports 25 and 587 (docs:
// functions/limits); send mail through an API or port 465/2525. Deno.connect(Tls), fetch and
// node:net (which npm SMTP clients use) are all refused, as PermissionDenied / EACCES.
const BLOCKED_PORTS = new Set([25, 587]);
const refusal = (port: unknown) =>
  `Outgoing connections to port ${String(port)} are not allowed on Supabase Edge Functions`;
const denoApi = Deno as unknown as Record<string, unknown> & {
  errors: { PermissionDenied: new (message: string) => Error };
};
for (const name of ['connect', 'connectTls']) {
  const real = denoApi[name] as (options: { port?: number }) => Promise<unknown>;
  denoApi[name] = (options: { port?: number }) =>
    BLOCKED_PORTS.has(Number(options?.port))
      ? Promise.reject(new denoApi.errors.PermissionDenied(refusal(options.port)))
      : real.call(Deno, options);
}
{
  // fetch to an explicit :25 or :587 (http and https only; other schemes go on to fetch's own
  // errors), refused before any connection is made.
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input: Request | URL | string, init?: RequestInit) => {
    let url: URL | null = null;
    try {
      url = new URL(input instanceof Request ? input.url : String(input));
    } catch {
      // Not a URL: the real fetch reports it.
    }
    if (url && /^https?:$/.test(url.protocol) && BLOCKED_PORTS.has(Number(url.port))) {
      return Promise.reject(new denoApi.errors.PermissionDenied(refusal(url.port)));
    }
    return realFetch(input, init);
  };
}
{
  const net = (await import('node:net')) as unknown as {
    Socket: { prototype: { connect(...args: unknown[]): unknown; destroy(err: Error): void } };
  };
  const realConnect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (
    this: { destroy(err: Error): void },
    ...args: unknown[]
  ) {
    // net.connect() hands Socket#connect its normalised arguments as one array [options, cb].
    const given = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
    const first = given as { port?: unknown } | number | string | undefined;
    const port = typeof first === 'object' && first !== null ? first.port : first;
    if (!BLOCKED_PORTS.has(Number(port))) return realConnect.apply(this, args);
    const err = Object.assign(new Error(refusal(port)), { code: 'EACCES' });
    queueMicrotask(() => this.destroy(err));
    return this;
  };
}

const realServe = Deno.serve.bind(Deno);
let served = false;
let resolvePort: (port: number) => void = () => undefined;
const listening = new Promise<number>((resolve) => (resolvePort = resolve));

/**
 * Deno.serve answers a throwing handler with a plain-text 500 "Internal Server Error"; the edge
 * runtime does the same (the gateway then tags it EDGE_FUNCTION_ERROR). We keep that answer but
 * produce it here so a handler error never reaches Deno's own logging format.
 */
function guard(handler: Handler, onError?: ServeOptions['onError']): Handler {
  return async (req, info) => {
    try {
      const res = await handler(req, info);
      if (!(res instanceof Response)) {
        throw new TypeError('Return value from serve handler must be a response');
      }
      return res;
    } catch (err) {
      console.error(err);
      if (onError) {
        try {
          return await onError(err);
        } catch (nested) {
          console.error(nested);
        }
      }
      return new Response('Internal Server Error', { status: 500 });
    }
  };
}

Deno.serve = (first: ServeOptions | Handler, second?: Handler) => {
  const options: ServeOptions = typeof first === 'function' ? {} : (first ?? {});
  const handler = typeof first === 'function' ? first : (second ?? options.handler);
  if (typeof handler !== 'function') throw new TypeError('A handler function must be provided.');
  if (served) throw new Error('Deno.serve was called twice; an edge function serves one handler');
  served = true;
  // Host and port are the emulator's choice, as the edge runtime ignores the function's own.
  return realServe(
    {
      hostname: '127.0.0.1',
      port: 0,
      signal: options.signal,
      onListen: ({ port }) => resolvePort(port),
    },
    guard(handler, options.onError),
  );
};

try {
  const mod = (await import(boot.entry)) as { default?: { fetch?: Handler } };
  const fetchExport = mod.default?.fetch;
  if (!served && typeof fetchExport === 'function') Deno.serve(fetchExport.bind(mod.default));
} catch (err) {
  console.error('worker boot error:', err);
  Deno.exit(1);
}

const deadline = Date.now() + SERVE_GRACE_MS;
while (!served && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
if (!served) {
  console.error('worker boot error: the function never called Deno.serve');
  Deno.exit(1);
}
console.log(`postbox:ready:${boot.token}:${await listening}`);
export {};
