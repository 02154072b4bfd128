// Shared bits of the in-browser conformance specs: the unchanged supabase-js UMD bundle in a page of
// the site (a real origin, so CORS applies), and SQL fixtures over the emulator's Postgres port.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import type { createClient, RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { PUBLISHABLE_KEY, SECRET_KEY, SERVICE_ROLE_KEY } from '../../emulator/keys';
import { E2E_SUPABASE_URL } from './ports';

export { PUBLISHABLE_KEY, SECRET_KEY };

/** What the specs keep on the page's `window` (types only: the values live in the browser). */
export type PageWindow = Window & {
  supabase: { createClient: typeof createClient };
  sb: SupabaseClient;
  channel: RealtimeChannel;
  inbox: unknown[];
};

/** The browser build supabase-js publishes to CDNs; it defines `window.supabase.createClient`. */
const UMD_BUNDLE = fileURLToPath(
  new URL('../../node_modules/@supabase/supabase-js/dist/umd/supabase.js', import.meta.url),
);

/** A short unique suffix for table, bucket and channel names, so specs never share fixtures. */
export function unique(prefix: string): string {
  return `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
}

/** Runs a fixture script as the superuser, as a migration would (global-setup sets E2E_DB_URL). */
export async function sql(script: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const url = process.env.E2E_DB_URL;
  if (!url)
    throw new Error('E2E_DB_URL is not set: tests/e2e/global-setup.ts must start the emulator');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(script, params);
  } finally {
    await client.end();
  }
}

/**
 * Opens the site's home page and creates `window.sb`, a supabase-js client made by the UMD bundle
 * with `key`; the page keeps no session of its own so two pages are two independent users.
 */
export async function openClient(page: Page, key: string = PUBLISHABLE_KEY): Promise<void> {
  if (!existsSync(UMD_BUNDLE)) throw new Error(`supabase-js browser bundle missing: ${UMD_BUNDLE}`);
  await page.goto('/');
  await page.addScriptTag({ path: UMD_BUNDLE });
  await page.evaluate(
    ({ url, key }) => {
      const w = window as unknown as PageWindow;
      w.sb = w.supabase.createClient(url, key, {
        auth: { persistSession: false, autoRefreshToken: false },
      });
      w.inbox = [];
    },
    { url: E2E_SUPABASE_URL, key },
  );
}

/**
 * Signs a fresh user in through `supabase.auth` in the page. Sign-ups are closed (SPEC §6), so the
 * account is made first with the service role, as invite-member would; the page then signs in with
 * its password and holds the session as any browser would.
 */
export async function signUpInPage(page: Page): Promise<string> {
  const email = `${unique('user')}@example.com`;
  const password = `pw-${randomUUID()}`;
  const response = await fetch(`${E2E_SUPABASE_URL}/auth/v1/admin/users`, {
    method: 'POST',
    headers: {
      apikey: SERVICE_ROLE_KEY,
      Authorization: `Bearer ${SERVICE_ROLE_KEY}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ email, password, email_confirm: true }),
  });
  if (!response.ok)
    throw new Error(`creating ${email}: ${response.status} ${await response.text()}`);
  const result = await page.evaluate(
    async ({ email, password }) => {
      const sb = (window as unknown as PageWindow).sb;
      const { data, error } = await sb.auth.signInWithPassword({ email, password });
      if (error) return { error: String(error.message) };
      // Realtime carries the user's token from here on, as supabase-js does on SIGNED_IN.
      await sb.realtime.setAuth(data.session.access_token);
      return { id: String(data.user.id) };
    },
    { email, password },
  );
  if ('error' in result) throw new Error(`sign-in in the browser failed: ${result.error}`);
  return result.id;
}

/** What the page has collected in `window.inbox` so far. */
export function inbox<T = Record<string, unknown>>(page: Page): Promise<T[]> {
  return page.evaluate(() => (window as unknown as { inbox: T[] }).inbox);
}
