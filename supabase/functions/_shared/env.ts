// Configuration of the edge functions (SPEC §0), read once. Local defaults apply only when the
// function runs against a local stack, so a hosted project without its secrets fails loudly.
const SUPABASE_URL = Deno.env.get('SUPABASE_URL') ?? 'http://127.0.0.1:54321';
const isLocal = /^https?:\/\/(127\.0\.0\.1|localhost|kong|host\.docker\.internal)(:|\/|$)/.test(
  SUPABASE_URL,
);

function setting(name: string, localDefault: string): string {
  const value = Deno.env.get(name);
  if (value) return value;
  if (isLocal) return localDefault;
  throw new Error(`${name} is not set: add it with \`supabase secrets set ${name}=...\``);
}

export const env = {
  supabaseUrl: SUPABASE_URL,
  serviceRoleKey: () => Deno.env.get('SUPABASE_SERVICE_ROLE_KEY') ?? '',
  anonKey: () => Deno.env.get('SUPABASE_ANON_KEY') ?? '',
  siteUrl: () => setting('POSTBOX_SITE_URL', 'http://127.0.0.1:3000').replace(/\/+$/, ''),
  tokenSecret: () =>
    setting('POSTBOX_TOKEN_SECRET', 'postbox-local-token-secret-not-for-production'),
  /** The shared secret the mail provider's webhook (email-events) sends. */
  webhookSecret: () =>
    setting('POSTBOX_WEBHOOK_SECRET', 'postbox-local-webhook-secret-not-for-production'),
  ownerEmail: () => setting('POSTBOX_OWNER_EMAIL', 'owner@example.com').trim().toLowerCase(),
  /**
   * Proxies of this deployment in front of the platform's own, each appending one
   * `X-Forwarded-For` hop that is not the client's (default 0); see clientIp in http.ts.
   */
  trustedProxyHops: (): number => {
    const value = (Deno.env.get('POSTBOX_TRUSTED_PROXY_HOPS') ?? '').trim();
    if (value === '') return 0;
    if (!/^\d{1,2}$/.test(value)) {
      throw new Error(`POSTBOX_TRUSTED_PROXY_HOPS must be a whole number, not "${value}"`);
    }
    return Number(value);
  },
  /** Headers of a call as the service role to the project's own APIs, plus `extra`. */
  serviceHeaders: (extra: Record<string, string> = {}): Record<string, string> => ({
    Authorization: `Bearer ${env.serviceRoleKey()}`,
    apikey: env.serviceRoleKey(),
    ...extra,
  }),
  /** The public URL of a function, as links in emails use it. */
  functionUrl: (name: string) =>
    `${Deno.env.get('POSTBOX_FUNCTIONS_URL') ?? `${SUPABASE_URL}/functions/v1`}/${name}`,
};
