// The environment a function process gets: platform variables, `.env` secrets and POSTBOX_* pass-through.
import { readFile } from 'node:fs/promises';
import { parse as parseDotenv } from 'dotenv';

export interface PlatformEnv {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  publishableKey: string;
  secretKey: string;
  dbUrl: string | null;
}

/**
 * Variables the hosted runtime sets (contract §5.2). The new-style keys come as JSON dicts keyed
 * by key name, as on hosted Supabase (`{"default": "sb_publishable_..."}`).
 */
export function platformVariables(p: PlatformEnv): Record<string, string> {
  const vars: Record<string, string> = {
    SUPABASE_URL: p.url,
    SUPABASE_ANON_KEY: p.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: p.serviceRoleKey,
    SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: p.publishableKey }),
    SUPABASE_SECRET_KEYS: JSON.stringify({ default: p.secretKey }),
  };
  if (p.dbUrl) vars.SUPABASE_DB_URL = p.dbUrl;
  return vars;
}

/**
 * What Deno itself needs from the emulator's environment to find its cache and the npm registry.
 * Everything else of the host stays out, as the CLI keeps HOME/PATH/... from functions.
 */
const RUNTIME_PASSTHROUGH = [
  'HOME',
  'PATH',
  'TMPDIR',
  'TZ',
  'LANG',
  'XDG_CACHE_HOME',
  'NPM_CONFIG_REGISTRY',
  // A TLS-intercepting proxy's CA, so Deno can reach the npm registry where Node can.
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
];

export interface FunctionEnvInput {
  /** The emulator's own environment (process.env). */
  host: Record<string, string | undefined>;
  /** Parsed `supabase/functions/.env`. */
  secrets: Record<string, string>;
  /** Facts only the running emulator knows (e.g. its mail catcher's SMTP port). */
  emulator?: Record<string, string>;
  platform: Record<string, string>;
}

export interface FunctionEnv {
  env: Record<string, string>;
  /** `.env` names that were dropped because the SUPABASE_ prefix is reserved. */
  skipped: string[];
}

/**
 * Merges, lowest precedence first: runtime pass-through and DENO_* / POSTBOX_* from the host, the
 * `.env` secrets, the emulator's own facts (a port picked at start beats a stale `.env` value),
 * then the platform SUPABASE_* variables. Secrets named SUPABASE_* are dropped, as the CLI does
 * ("Env name cannot start with SUPABASE_, skipping"), so they can never override them.
 */
export function buildFunctionEnv({
  host,
  secrets,
  emulator = {},
  platform,
}: FunctionEnvInput): FunctionEnv {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(host)) {
    if (value === undefined) continue;
    if (
      RUNTIME_PASSTHROUGH.includes(name) ||
      name.startsWith('DENO_') ||
      name.startsWith('POSTBOX_')
    ) {
      env[name] = value;
    }
  }
  // Colour codes would garble the emulator's log; Deno honours NO_COLOR.
  env.NO_COLOR = '1';
  env.DENO_NO_UPDATE_CHECK = '1';
  const skipped: string[] = [];
  for (const [name, value] of Object.entries(secrets)) {
    if (name.startsWith('SUPABASE_')) skipped.push(name);
    else env[name] = value;
  }
  Object.assign(env, emulator, platform);
  return { env, skipped };
}

/** Reads a dotenv file; a missing file means no secrets. */
export async function readDotenv(path: string): Promise<Record<string, string>> {
  try {
    return parseDotenv(await readFile(path, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
}
