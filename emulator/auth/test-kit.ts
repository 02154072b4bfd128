// Helpers shared by the auth integration tests: clients, raw calls, and reading mail from MailDev.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { createTestProject, type ProjectFiles } from '../test-project.js';
import { startEmulator, type RunningEmulator } from '../index.js';

/**
 * The Supabase CLI's local auth defaults (sign-ups open, autoconfirm), as `supabase init` writes
 * them. Tests of the emulator's Auth use this rather than the repository's own config.toml, whose
 * product closes sign-ups (SPEC §6).
 */
export const CLI_DEFAULTS_CONFIG = `
[auth]
enabled = true
site_url = "http://127.0.0.1:3000"
additional_redirect_urls = ["https://127.0.0.1:3000"]
jwt_expiry = 3600
enable_refresh_token_rotation = true
refresh_token_reuse_interval = 10
enable_signup = true
enable_anonymous_sign_ins = false
minimum_password_length = 6

[auth.email]
enable_signup = true
double_confirm_changes = true
enable_confirmations = false
max_frequency = "1s"
`;

/** A project with email confirmations on (hosted's default), anonymous sign-ins and a 1 s reuse interval. */
export const CONFIRMATIONS_CONFIG = `
[auth]
site_url = "http://127.0.0.1:3000"
additional_redirect_urls = ["https://app.example.com/**"]
enable_anonymous_sign_ins = true
refresh_token_reuse_interval = 1

[auth.email]
enable_confirmations = true
`;

/** The `#fragment` parameters of a redirect Location. */
export function fragmentOf(location: string): URLSearchParams {
  return new URLSearchParams(location.split('#')[1] ?? '');
}

export function client(
  emu: RunningEmulator,
  key: string,
  flowType: 'implicit' | 'pkce' = 'implicit',
): SupabaseClient {
  return createClient(emu.url, key, {
    auth: { persistSession: false, autoRefreshToken: false, flowType },
  });
}

/**
 * Starts an emulator on a temp project whose supabase/config.toml holds `toml`; `files` are more
 * files under `supabase/` (e.g. `migrations/…sql`).
 */
export async function startWithConfig(
  toml: string,
  files: ProjectFiles = {},
): Promise<RunningEmulator & { cleanupDir(): Promise<void> }> {
  const project = await createTestProject('auth-test', { 'config.toml': toml, ...files });
  const emu = await startEmulator({
    memory: true,
    port: 0,
    dbPort: null,
    mailWebPort: 0,
    mailSmtpPort: 0,
    projectDir: project.dir,
  });
  return { ...emu, cleanupDir: project.remove };
}

export interface CaughtMail {
  subject: string;
  text: string;
  html: string;
  to: Array<{ address: string }>;
  from: Array<{ address: string; name: string }>;
}

/**
 * The `nth` (1-based) email MailDev caught for `to`, waiting briefly for delivery; by default the
 * first. Tests ask for the 2nd, 3rd… when an address gets several, so none races the catcher.
 */
export async function mailFor(emu: RunningEmulator, to: string, nth = 1): Promise<CaughtMail> {
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`${emu.mail!.url}/api/email`);
    const all = (await res.json()) as CaughtMail[];
    const mine = all.filter((m) => m.to.some((t) => t.address === to));
    if (mine.length >= nth) return mine[nth - 1]!;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail #${nth} for ${to}`);
}

export async function mailCount(emu: RunningEmulator, to: string): Promise<number> {
  const res = await fetch(`${emu.mail!.url}/api/email`);
  const all = (await res.json()) as CaughtMail[];
  return all.filter((m) => m.to.some((t) => t.address === to)).length;
}

export function linkIn(mail: CaughtMail): string {
  const m = /(http:\/\/\S+\/auth\/v1\/verify\?\S+)/.exec(mail.text);
  if (!m) throw new Error('no verify link in: ' + mail.text);
  return m[1]!;
}

export function codeIn(mail: CaughtMail): string {
  const m = /enter the code: (\d+)/.exec(mail.text);
  if (!m) throw new Error('no code in: ' + mail.text);
  return m[1]!;
}

let counter = 0;
export function uniqueEmail(tag: string): string {
  counter++;
  return `${tag}-${Date.now()}-${counter}@example.com`;
}

/** Raw call to /auth/v1 with the headers supabase-js would send (optionally without the version). */
export async function authFetch(
  emu: RunningEmulator,
  path: string,
  init: {
    method?: string;
    body?: unknown;
    token?: string;
    apikey?: string;
    version?: boolean;
  } = {},
): Promise<Response> {
  const apikey = init.apikey ?? emu.keys.anon;
  const headers: Record<string, string> = { apikey, 'Content-Type': 'application/json' };
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  if (init.version !== false) headers['X-Supabase-Api-Version'] = '2024-01-01';
  return fetch(`${emu.url}/auth/v1${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    redirect: 'manual',
  });
}

export function decodeJwt(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<
    string,
    unknown
  >;
}
