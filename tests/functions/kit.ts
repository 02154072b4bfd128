// Test kit for the edge functions: an isolated emulator running the real supabase/ folder, HTTP
// calls the way a browser or mail client makes them, tokens signed as the functions sign them, and
// the mail that arrived in MailDev.
import { createHmac, randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { startEmulator, type RunningEmulator } from '../../emulator/index';

/** The secret the functions under test sign with (passed to Deno through POSTBOX_* env). */
export const TEST_TOKEN_SECRET = 'postbox-test-token-secret';
export const TEST_SITE_URL = 'http://127.0.0.1:3999';
export const TEST_OWNER_EMAIL = 'owner@example.com';

/**
 * Starts an in-memory emulator with the project's migrations, seed and functions. The pg_cron job
 * that runs process-queue every 10 s is paused unless `scheduler` is set: tests drive the
 * queue themselves, and a run they did not start would change what they measure.
 */
export async function startFunctionsEmulator(
  options: {
    scheduler?: boolean;
    /** Where the functions' SMTP transport sends (default: the emulator's MailDev). */
    functionsSmtp?: { host: string; port: number };
    /** Hears the emulator's log lines, the functions' console output among them. */
    log?: (line: string) => void;
    /**
     * POSTBOX_TRUSTED_PROXY_HOPS of the functions (default: unset, i.e. 0). With 1 the test
     * stands for a trusted proxy in front of the emulator: the last `X-Forwarded-For` hop it sends
     * is the client address the rate limit counts, so a test can act as many visitors.
     */
    trustedProxyHops?: number;
  } = {},
): Promise<RunningEmulator> {
  if (options.trustedProxyHops === undefined) delete process.env.POSTBOX_TRUSTED_PROXY_HOPS;
  else process.env.POSTBOX_TRUSTED_PROXY_HOPS = String(options.trustedProxyHops);
  process.env.POSTBOX_TOKEN_SECRET = TEST_TOKEN_SECRET;
  process.env.POSTBOX_SITE_URL = TEST_SITE_URL;
  process.env.POSTBOX_OWNER_EMAIL = TEST_OWNER_EMAIL;
  const emu = await startEmulator({
    memory: true,
    port: 0,
    dbPort: null,
    mailWebPort: 0,
    mailSmtpPort: 0,
    functionsSmtp: options.functionsSmtp,
    log: options.log,
  });
  if (!options.scheduler) await stopScheduler(emu);
  return emu;
}

/** Pauses the project's process-queue job (`cron.alter_job … active := false`), as an operator would. */
export async function stopScheduler(emu: RunningEmulator): Promise<void> {
  await setScheduler(emu, false);
}

/** Resumes the process-queue job paused by `stopScheduler`. */
export async function startScheduler(emu: RunningEmulator): Promise<void> {
  await setScheduler(emu, true);
}

async function setScheduler(emu: RunningEmulator, active: boolean): Promise<void> {
  await emu.db.query(
    `select cron.alter_job(jobid, active := $1) from cron.job where jobname = 'postbox-process-queue'`,
    [active],
  );
}

/** A supabase-js client with the secret (service role) or publishable key. */
export function clientFor(emu: RunningEmulator, key: 'service' | 'publishable'): SupabaseClient {
  return createClient(emu.url, key === 'service' ? emu.keys.serviceRole : emu.keys.publishable, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
}

export interface CallOptions {
  method?: string;
  /** A JSON body (sent with Content-Type: application/json) unless `rawBody` is given. */
  body?: unknown;
  rawBody?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** `Authorization: Bearer <token>`; the publishable key alone sends none, as supabase-js does. */
  bearer?: string;
}

export interface CallResult {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

/**
 * A publishable-key client signed in as a new account (password sign-in) that is a team member
 * with `role`, or on no team at all when `role` is null — what a member's browser holds.
 */
export async function signedInClient(
  emu: RunningEmulator,
  role: 'owner' | 'admin' | 'editor' | 'viewer' | null,
): Promise<SupabaseClient> {
  const service = clientFor(emu, 'service');
  const email = `${role ?? 'stranger'}-${randomUUID().slice(0, 8)}@example.com`;
  const password = `pw-${randomUUID()}`;
  const { data, error } = await service.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  if (error || !data.user) throw new Error(`createUser: ${error?.message}`);
  if (role) {
    await sql(emu, 'insert into public.members (user_id, email, role) values ($1, $2, $3)', [
      data.user.id,
      email,
      role,
    ]);
  }
  const client = clientFor(emu, 'publishable');
  const signIn = await client.auth.signInWithPassword({ email, password });
  if (signIn.error) throw new Error(`signIn: ${signIn.error.message}`);
  return client;
}

/** Calls `/functions/v1/<name>` with the publishable key, like the site. */
export async function callFunction(
  emu: RunningEmulator,
  name: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const url = new URL(`${emu.url}/functions/v1/${name}`);
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
  const headers: Record<string, string> = { apikey: emu.keys.publishable, ...options.headers };
  if (options.bearer) headers.Authorization = `Bearer ${options.bearer}`;
  let body: string | undefined = options.rawBody;
  if (body === undefined && options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(url, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
    redirect: 'manual',
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

function base64url(input: Buffer | string): string {
  return Buffer.from(input).toString('base64url');
}

/** Signs a token exactly as supabase/functions/_shared/tokens.ts does (or with another secret, to forge one). */
export function signTestToken(
  payload: Record<string, unknown>,
  secret = TEST_TOKEN_SECRET,
): string {
  const body = base64url(JSON.stringify(payload));
  const signature = createHmac('sha256', secret).update(body).digest('base64url');
  return `${body}.${signature}`;
}

export interface CaughtMail {
  id: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  to: { address: string }[];
  from: { address: string; name: string }[];
}

/** Every message MailDev caught for `address`, oldest first. */
export async function mailFor(emu: RunningEmulator, address: string): Promise<CaughtMail[]> {
  const response = await fetch(`${emu.mail!.url}/api/email`);
  const all = (await response.json()) as CaughtMail[];
  return all.filter((m) => m.to.some((t) => t.address.toLowerCase() === address.toLowerCase()));
}

/** Waits (up to `timeoutMs`) until `address` has at least `count` messages, and returns them. */
export function waitForMail(
  emu: RunningEmulator,
  address: string,
  count = 1,
  timeoutMs = 15_000,
): Promise<CaughtMail[]> {
  return waitForMailWhere(emu, address, () => true, count, timeoutMs);
}

/**
 * Waits (up to `timeoutMs`) until `address` has at least `count` messages that `where` accepts,
 * and returns those. A sign-up to a single opt-in list also gets the list's welcome automation,
 * sent by the queue at its own pace, so "the first mail" is not a stable way to pick a message.
 */
export async function waitForMailWhere(
  emu: RunningEmulator,
  address: string,
  where: (mail: CaughtMail) => boolean,
  count = 1,
  timeoutMs = 15_000,
): Promise<CaughtMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const all = await mailFor(emu, address);
    const found = all.filter(where);
    if (found.length >= count) return found;
    if (Date.now() > deadline) {
      const seen = all.map((m) => m.subject).join(' | ') || 'none';
      throw new Error(`expected ${count} matching mail(s) for ${address}, seen: ${seen}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The one message to `address` whose subject matches `subject`, once it has arrived. */
export async function waitForMailWithSubject(
  emu: RunningEmulator,
  address: string,
  subject: RegExp,
  timeoutMs = 15_000,
): Promise<CaughtMail> {
  return (await waitForMailWhere(emu, address, (m) => subject.test(m.subject), 1, timeoutMs))[0]!;
}

/** The first `${TEST_SITE_URL}<path>?token=…` link in a message's text part. */
export function linkIn(mail: CaughtMail, path: string): URL {
  const pattern = new RegExp(`${TEST_SITE_URL.replace(/[.:/]/g, '\\$&')}${path}\\S*`);
  const match = pattern.exec(mail.text);
  if (!match) throw new Error(`no ${path} link in mail "${mail.subject}":\n${mail.text}`);
  return new URL(match[0]);
}

/** Runs SQL as postgres (bypassing RLS) to arrange or inspect state. */
export async function sql<R = Record<string, unknown>>(
  emu: RunningEmulator,
  text: string,
  params: unknown[] = [],
): Promise<R[]> {
  return (await emu.db.query<R>(text, params)).rows;
}

/** A snapshot of every audience table, to assert that a refused request changed nothing. */
export async function snapshot(emu: RunningEmulator): Promise<string> {
  const tables = ['subscribers', 'subscriptions', 'events', 'lists', 'members', 'settings'];
  const parts: string[] = [];
  for (const table of tables) {
    const rows = await sql(emu, `select * from public.${table} order by 1`);
    parts.push(`${table}: ${JSON.stringify(rows)}`);
  }
  return parts.join('\n');
}

export interface TestSubscriber {
  id: string;
  email: string;
}

export interface TestSubscriberOptions {
  /** Prefix of the unique address, so a failing test names its own rows. */
  tag?: string;
  name?: string;
  attributes?: Record<string, unknown>;
  referredBy?: { id: string };
  status?: 'enabled' | 'blocklisted';
}

/** A fresh subscriber with a unique address and the given subscriptions ({slug: status}). */
export async function createSubscriber(
  emu: RunningEmulator,
  subscriptions: Record<string, string> = {},
  options: TestSubscriberOptions = {},
): Promise<TestSubscriber> {
  const email = `${options.tag ?? 'test'}-${randomUUID()}@example.com`;
  const [row] = await sql<{ id: string }>(
    emu,
    `insert into public.subscribers (email, name, attributes, referred_by)
     values ($1, $2, $3, $4) returning id`,
    [
      email,
      options.name ?? 'Test Person',
      JSON.stringify(options.attributes ?? {}),
      options.referredBy?.id ?? null,
    ],
  );
  for (const [slug, state] of Object.entries(subscriptions)) {
    await sql(
      emu,
      `insert into public.subscriptions (subscriber_id, list_id, status)
       select $1, id, $3 from public.lists where slug = $2`,
      [row!.id, slug, state],
    );
  }
  // After the subscriptions, as in life: blocklisting then unsubscribes from every list.
  if (options.status === 'blocklisted') {
    await sql(emu, `update public.subscribers set status = 'blocklisted' where id = $1`, [row!.id]);
  }
  return { id: row!.id, email };
}
