// Request plumbing shared by every function: CORS, JSON answers, body parsing with limits, and the
// one top-level handler that turns AppError into the catalogue's shape and anything else into 500.
import { AppError, invalidInput } from './errors.ts';

export const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Expose-Headers': 'Retry-After',
  'Access-Control-Max-Age': '86400',
};

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...CORS_HEADERS, 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}

export function errorResponse(error: AppError): Response {
  const body: { error: { code: string; message: string; field?: string } } = {
    error: { code: error.code, message: error.message },
  };
  if (error.field) body.error.field = error.field;
  return json(body, error.status, error.headers);
}

export type Handler = (req: Request) => Promise<Response> | Response;

/**
 * Wraps a handler: answers OPTIONS (CORS preflight) first, refuses methods outside `methods`,
 * and funnels every error to one place, so no stack trace or partial answer ever leaks.
 */
export function serve(methods: string[], handler: Handler): void {
  Deno.serve(async (req) => {
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS_HEADERS });
    try {
      if (!methods.includes(req.method)) {
        throw new AppError('method_not_allowed', undefined, {
          headers: { Allow: methods.join(', ') },
        });
      }
      return await handler(req);
    } catch (error) {
      if (error instanceof AppError) return errorResponse(error);
      console.error(error);
      return errorResponse(new AppError('internal'));
    }
  });
}

type EdgeRuntimeGlobal = { EdgeRuntime?: { waitUntil(promise: Promise<unknown>): void } };

/**
 * Runs `task` once the handler's answer is on its way, and hands its failure to `onError`.
 * The task starts in a macrotask (a zero timer), never in the microtasks that follow the handler
 * returning: none of its work, not even a synchronous first step, comes before the Response is
 * written, so the answer's timing says nothing about whether there was a task. EdgeRuntime.waitUntil
 * (Supabase and the emulator) keeps the worker alive until it settles.
 */
export function afterAnswer(task: () => unknown, onError: (error: unknown) => void): Promise<void> {
  const done = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(task).then(
    () => undefined,
    (error) => onError(error),
  );
  (globalThis as EdgeRuntimeGlobal).EdgeRuntime?.waitUntil(done);
  return done;
}

/** Largest JSON body any public function accepts (a subscribe with 4 KB of attributes fits easily). */
export const MAX_JSON_BYTES = 16 * 1024;

/** Reads a JSON object body: wrong content type, invalid JSON or a non-object is `invalid_input`. */
export async function readJsonObject(
  req: Request,
  maxBytes = MAX_JSON_BYTES,
): Promise<Record<string, unknown>> {
  const type = (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json')
    throw invalidInput('body', 'send JSON with Content-Type: application/json');
  const text = await readText(req, maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidInput('body', 'must be valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput('body', 'must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/** The body as text, refusing anything over `maxBytes` with 413 before reading it all. */
export async function readText(req: Request, maxBytes: number): Promise<string> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(all);
}

function tooLarge(maxBytes: number): AppError {
  return new AppError(
    'payload_too_large',
    `The request body must be at most ${Math.round(maxBytes / 1024)} KB.`,
  );
}

/**
 * The visitor's address for per-client rate limits. Every proxy appends the address it was
 * called from to `X-Forwarded-For`, so only hops on the right were written by someone trusted:
 * the last is the platform's own, and `trustedHops` more (POSTBOX_TRUSTED_PROXY_HOPS) are skipped
 * for proxies of the deployment in front of it. Anything further left is whatever the client
 * sent, never used: a made-up leading hop must not earn a fresh limit.
 */
export function clientIp(req: Request, trustedHops = 0): string {
  const hops = (req.headers.get('x-forwarded-for') ?? '').split(',').map((hop) => hop.trim());
  return hops[Math.max(0, hops.length - 1 - trustedHops)] || 'unknown';
}
