// The Send Email Hook's Standard Webhooks signature (webhook-id, webhook-timestamp,
// webhook-signature), checked with the standardwebhooks package: HMAC-SHA256 over
// `${id}.${timestamp}.${body}` with the hook's secret, and a timestamp within 5 minutes.
// (Imported here rather than from _shared/deps.ts: only this function uses it.)
import { Webhook } from 'npm:standardwebhooks@1.1.1';

// Same pattern as _shared/env.ts: local defaults only when the function runs against a local stack.
const LOCAL = /^https?:\/\/(127\.0\.0\.1|localhost|kong|host\.docker\.internal)(:|\/|$)/;

/**
 * The emulator signs with this when `env(POSTBOX_AUTH_HOOK_SECRET)` is unset
 * (emulator/auth/hook-config.ts); a hosted project must set its own.
 */
const LOCAL_SECRET =
  'v1,whsec_cG9zdGJveC1sb2NhbC1hdXRoLWhvb2stc2VjcmV0LW5vdC1mb3ItcHJvZHVjdGlvbg==';

/** `v1,whsec_<base64>` from POSTBOX_AUTH_HOOK_SECRET (Authentication → Hooks in the dashboard). */
export function hookSecret(): string {
  const value = Deno.env.get('POSTBOX_AUTH_HOOK_SECRET');
  if (value) return value;
  if (LOCAL.test(Deno.env.get('SUPABASE_URL') ?? '')) return LOCAL_SECRET;
  throw new Error(
    'POSTBOX_AUTH_HOOK_SECRET is not set: add it with `supabase secrets set POSTBOX_AUTH_HOOK_SECRET=...`',
  );
}

/** The verified payload, or null when the signature is missing, wrong or older than 5 minutes. */
export function verifiedPayload(body: string, headers: Headers, secret: string): unknown {
  const webhook = new Webhook(secret.replace(/^v1,/, '').replace(/^whsec_/, ''));
  try {
    return webhook.verify(body, {
      'webhook-id': headers.get('webhook-id') ?? '',
      'webhook-timestamp': headers.get('webhook-timestamp') ?? '',
      'webhook-signature': headers.get('webhook-signature') ?? '',
    });
  } catch {
    return null;
  }
}
