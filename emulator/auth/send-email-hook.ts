// The Send Email Hook as hosted Auth calls it (internal/hooks/hookshttp): a Standard Webhooks-signed
// JSON POST instead of Auth's own email, its timeout and retries, and the errors clients then get.
import { createHmac, randomUUID } from 'node:crypto';
import { AuthError } from './errors.js';
import { hookTarget, type SendEmailHookConfig } from './hook-config.js';

/** `email_data` of the payload (mailer.EmailData): every field is always present, often empty. */
export interface EmailData {
  token: string;
  token_hash: string;
  redirect_to: string;
  email_action_type: string;
  site_url: string;
  token_new: string;
  token_hash_new: string;
}

export interface HookTiming {
  timeoutMs: number;
  retries: number;
  backoffMs: number;
  responseLimit: number;
}

// Upstream's defaults: 5 s for the whole call including retries, 3 attempts, 2 s apart, 200 KB.
export const HOSTED_TIMING: HookTiming = {
  timeoutMs: 5000,
  retries: 3,
  backoffMs: 2000,
  responseLimit: 200 * 1024,
};

/** standardwebhooks' Sign: `v1,` + base64(HMAC-SHA256(secret, `${id}.${timestamp}.${body}`)). */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^v1,/, '').replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** An error upstream creates without an error code: 500 reads unexpected_failure, others unknown. */
function uncoded(status: number, message: string): AuthError {
  return new AuthError(status, status === 500 ? 'unexpected_failure' : 'unknown', message);
}

const timedOut = (timing: HookTiming) =>
  new AuthError(
    422,
    'hook_timeout',
    // Go's %f of the timeout in seconds.
    `Failed to reach hook within maximum time of ${(timing.timeoutMs / 1000).toFixed(6)} seconds`,
  );

/** `{error: {http_code, message}}` in a 2xx answer is the hook refusing (hookserrors.Check). */
function hookRefusal(body: string): AuthError | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw uncoded(500, 'Error unmarshaling JSON output.');
  }
  const error = (parsed as { error?: { http_code?: unknown; message?: unknown } } | null)?.error;
  if (!error || typeof error !== 'object' || typeof error.message !== 'string' || !error.message) {
    return null;
  }
  const code = typeof error.http_code === 'number' && error.http_code ? error.http_code : 500;
  return uncoded(code, error.message);
}

async function readLimited(res: Response, limit: number): Promise<string> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.length > limit) {
    throw new AuthError(
      422,
      'hook_payload_over_size_limit',
      `Payload size exceeded size limit of ${limit} bytes`,
    );
  }
  return new TextDecoder().decode(bytes);
}

function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => resolve(true), ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve(false)), { once: true });
  });
}

/** Answers of a reached hook other than success, as runHTTPHook maps them. */
async function outcome(res: Response, timing: HookTiming): Promise<'done' | 'retry'> {
  switch (res.status) {
    case 204:
      return 'done';
    case 200:
    case 202: {
      const type = res.headers.get('content-type');
      if (!type) {
        throw new AuthError(
          400,
          'hook_payload_invalid_content_type',
          'Invalid Content-Type: Missing Content-Type header',
        );
      }
      if (type.split(';')[0]!.trim().toLowerCase() !== 'application/json') {
        throw new AuthError(
          400,
          'hook_payload_invalid_content_type',
          `Invalid JSON response. Received content-type: ${type}`,
        );
      }
      const refusal = hookRefusal(await readLimited(res, timing.responseLimit));
      if (refusal) throw refusal;
      return 'done';
    }
    case 429:
    case 503:
      // Upstream tries again at once when the hook says when; without Retry-After it gives up.
      if (res.headers.get('retry-after')) return 'retry';
      throw uncoded(500, 'Service currently unavailable due to hook');
    case 400:
      throw uncoded(500, 'Invalid payload sent to hook');
    case 401:
      throw uncoded(500, 'Hook requires authorization token');
    default:
      throw uncoded(500, `Unexpected status code returned from hook: ${res.status}`);
  }
}

/**
 * Starts the emulator's own function behind a local hook before hosted's deadline runs. Hosted
 * Edge Functions are bundled at deploy time and start in well under a second; here a function's
 * first request launches Deno and loads its modules, which on a busy machine alone can pass the
 * 5 s that hosted Auth gives the hook's answer. Any answer (OPTIONS is CORS's preflight) will do.
 */
async function warmLocalFunction(url: string, gatewayUrl: string): Promise<void> {
  if (!url.startsWith(`${gatewayUrl}/functions/v1/`)) return;
  try {
    const res = await fetch(url, { method: 'OPTIONS', signal: AbortSignal.timeout(60_000) });
    await res.arrayBuffer();
  } catch {
    // Unreachable or slow: the real call below reports it as hosted Auth would.
  }
}

/**
 * POSTs `payload` to the hook, signed with every secret (a fresh webhook-id and timestamp per
 * attempt), within one deadline for all attempts. A network failure is tried again after the
 * backoff; a timeout is 422 hook_timeout, the last failed attempt 422 hook_timeout_after_retry.
 */
export async function callSendEmailHook(
  hook: SendEmailHookConfig,
  gatewayUrl: string,
  payload: unknown,
  timing: HookTiming = HOSTED_TIMING,
): Promise<void> {
  const url = hookTarget(hook, gatewayUrl);
  if (url.startsWith('pg-functions:')) {
    throw new AuthError(
      501,
      'not_implemented',
      'Postgres-function Send Email hooks are not implemented by the Postbox emulator (see emulator/README.md)',
    );
  }
  await warmLocalFunction(url, gatewayUrl);
  const body = JSON.stringify(payload);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timing.timeoutMs);
  try {
    for (let attempt = 0; attempt < timing.retries; attempt++) {
      const id = randomUUID();
      const timestamp = Math.floor(Date.now() / 1000);
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          body,
          signal: deadline.signal,
          headers: {
            'Content-Type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': hook.secrets
              .map((s) => signature(s, id, timestamp, body))
              .join(', '),
            'Accept-Encoding': 'identity',
          },
        });
      } catch {
        if (deadline.signal.aborted) throw timedOut(timing);
        if (attempt < timing.retries - 1) {
          if (!(await wait(timing.backoffMs, deadline.signal))) throw timedOut(timing);
          continue;
        }
        throw new AuthError(
          422,
          'hook_timeout_after_retry',
          'Failed to reach hook after maximum retries',
        );
      }
      try {
        if ((await outcome(res, timing)) === 'done') return;
      } catch (err) {
        if (deadline.signal.aborted && !(err instanceof AuthError)) throw timedOut(timing);
        throw err;
      }
    }
    throw uncoded(500, 'Service currently unavailable due to hook');
  } finally {
    clearTimeout(timer);
  }
}
