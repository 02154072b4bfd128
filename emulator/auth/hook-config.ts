// `[auth.hook.send_email]` of config.toml as the CLI writes it (enabled, uri, secrets), checked as
// Auth checks it at start (conf.ExtensibilityPointConfiguration), and where the emulator sends it.

export interface SendEmailHookConfig {
  /** The hook's URI as configured, e.g. `http://host.docker.internal:54321/functions/v1/auth-email`. */
  uri: string;
  /** Standard Webhooks secrets (`v1,whsec_<base64>`); every one signs each call. */
  secrets: string[];
  /** `[api] port`: a local URI on this port means the emulator's own gateway. */
  apiPort: number;
}

/**
 * The secret `env(POSTBOX_AUTH_HOOK_SECRET)` stands for when that variable is unset, so the local
 * stack works with no setup. supabase/functions/auth-email falls back to the same value, and only
 * when it runs against a local stack; a hosted project sets its own (README, Deploy).
 */
export const LOCAL_AUTH_HOOK_SECRET =
  'v1,whsec_cG9zdGJveC1sb2NhbC1hdXRoLWhvb2stc2VjcmV0LW5vdC1mb3ItcHJvZHVjdGlvbg==';

// Upstream's accepted formats (conf/configuration.go); asymmetric secrets are not signed with yet.
const SYMMETRIC = /^v1,whsec_[A-Za-z0-9+/=]{32,88}/;
const ASYMMETRIC = /^v1a,whpk_[A-Za-z0-9+/=]{44,}:whsk_[A-Za-z0-9+/=]{44,}$/;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', 'host.docker.internal']);

type Table = Record<string, unknown>;

function table(value: unknown): Table {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Table) : {};
}

/** The CLI's `env(NAME)` substitution; other strings stand as they are. */
function resolveEnv(value: string, env: Record<string, string | undefined>): string {
  const match = /^env\(([A-Za-z_][A-Za-z0-9_]*)\)$/.exec(value.trim());
  if (!match) return value;
  const name = match[1]!;
  const found = env[name];
  if (found) return found;
  if (name === 'POSTBOX_AUTH_HOOK_SECRET') return LOCAL_AUTH_HOOK_SECRET;
  throw new Error(`config.toml: environment variable ${name} is unset`);
}

/**
 * `[auth.hook.send_email]` from parsed config.toml, or null when absent or disabled. Throws for a
 * URI or secret Auth would refuse to start with.
 */
export function sendEmailHookFromToml(
  doc: Table,
  env: Record<string, string | undefined> = process.env,
): SendEmailHookConfig | null {
  const hook = table(table(table(doc.auth).hook).send_email);
  if (hook.enabled !== true) return null;
  const rawUri = typeof hook.uri === 'string' ? resolveEnv(hook.uri, env) : '';
  if (!rawUri) throw new Error('config.toml: [auth.hook.send_email] needs a uri');
  let url: URL;
  try {
    url = new URL(rawUri);
  } catch {
    throw new Error(`config.toml: [auth.hook.send_email] uri "${rawUri}" is not a URL`);
  }
  if (url.protocol === 'http:' && !LOCAL_HOSTS.has(url.hostname)) {
    throw new Error('config.toml: only localhost, 127.0.0.1, and ::1 are supported with http');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'pg-functions:') {
    throw new Error('config.toml: only postgres hooks and HTTPS functions are supported');
  }
  const rawSecrets = typeof hook.secrets === 'string' ? resolveEnv(hook.secrets, env) : '';
  // Several secrets are separated by `|`, as in GOTRUE_HOOK_SEND_EMAIL_SECRETS.
  const secrets = rawSecrets.split('|').filter(Boolean);
  for (const secret of secrets) {
    if (!SYMMETRIC.test(secret) && !ASYMMETRIC.test(secret)) {
      throw new Error('config.toml: [auth.hook.send_email] secrets: invalid secret format');
    }
  }
  const port = table(doc.api).port;
  return { uri: rawUri, secrets, apiPort: typeof port === 'number' ? port : 54321 };
}

/**
 * Where a call to the hook goes. The CLI's Auth runs in Docker and reaches the API through
 * `host.docker.internal:<api port>`; here Auth and the gateway are one process
 * whose port may have been picked at start, so such a URI is sent to the gateway itself.
 */
export function hookTarget(hook: SendEmailHookConfig, gatewayUrl: string): string {
  const url = new URL(hook.uri);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (!LOCAL_HOSTS.has(url.hostname) || port !== hook.apiPort) return hook.uri;
  return `${gatewayUrl}${url.pathname}${url.search}`;
}
