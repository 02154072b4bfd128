// E2E helper for team pages: creates users with a role in the e2e emulator (Auth admin API and a
// `members` row, both as the service role), and signs them in through the real /login/ page, by
// password or by the magic link Auth mails to MailDev.
import { randomUUID } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { SERVICE_ROLE_KEY } from '../../emulator/keys';
import type { Role } from '../../lib/roles';
import { E2E_MAIL_WEB_PORT, E2E_SUPABASE_URL } from './ports';

export const OWNER_EMAIL = 'owner@example.com';
export const MAIL_API = `http://127.0.0.1:${E2E_MAIL_WEB_PORT}/api/email`;

/** The service role acts for the test (it bypasses RLS), never for the page under test. */
const SERVICE_HEADERS = {
  apikey: SERVICE_ROLE_KEY,
  Authorization: `Bearer ${SERVICE_ROLE_KEY}`,
  'Content-Type': 'application/json',
};

export interface TeamUser {
  id: string;
  email: string;
  password: string;
  /** null: an auth user with no members row (a stranger who can sign in but has no access). */
  role: Role | null;
}

/** A unique address for one test, e.g. `admin-1732291234-ab12cd@example.com`. */
export function uniqueEmail(prefix = 'member'): string {
  return `${prefix}-${Date.now()}-${randomUUID().slice(0, 6)}@example.com`;
}

async function service(path: string, init: RequestInit): Promise<unknown> {
  const response = await fetch(`${E2E_SUPABASE_URL}${path}`, {
    ...init,
    headers: { ...SERVICE_HEADERS, ...(init.headers as Record<string, string>) },
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${path} → ${response.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Creates a confirmed auth user with a password and, unless `role` is null, its members row. */
export async function createTeamUser(
  role: Role | null,
  options: { email?: string; password?: string } = {},
): Promise<TeamUser> {
  const email = (options.email ?? uniqueEmail(role ?? 'stranger')).toLowerCase();
  const password = options.password ?? `pw-${randomUUID()}`;
  const user = (await service('/auth/v1/admin/users', {
    method: 'POST',
    body: JSON.stringify({ email, password, email_confirm: true }),
  })) as { id: string };
  if (role) await addMember(user.id, email, role);
  return { id: user.id, email, password, role };
}

/** Inserts (or changes) the members row of an existing auth user. */
export async function addMember(userId: string, email: string, role: Role): Promise<void> {
  await service('/rest/v1/members?on_conflict=user_id', {
    method: 'POST',
    headers: { Prefer: 'resolution=merge-duplicates,return=minimal' },
    body: JSON.stringify({ user_id: userId, email, role }),
  });
}

/** Inserts rows into a public table as the service role and returns them. */
export async function insertRows<T = Record<string, unknown>>(
  table: string,
  rows: Record<string, unknown>[],
): Promise<T[]> {
  return (await service(`/rest/v1/${table}`, {
    method: 'POST',
    headers: { Prefer: 'return=representation' },
    body: JSON.stringify(rows),
  })) as T[];
}

export interface Mail {
  subject: string;
  text: string;
  html: string;
  to: { address: string }[];
  date?: string;
}

/** Every message MailDev holds for `address`, oldest first. */
export async function mailsFor(address: string): Promise<Mail[]> {
  const response = await fetch(MAIL_API);
  if (!response.ok) throw new Error(`MailDev answered ${response.status}`);
  const all = (await response.json()) as Mail[];
  return all.filter((m) => m.to.some((t) => t.address.toLowerCase() === address.toLowerCase()));
}

/** Waits for message number `count` for `address` (Auth's emails come through auth-email). */
export async function waitForAuthMail(address: string, count: number): Promise<Mail> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const mails = await mailsFor(address);
    const mail = mails[count - 1];
    if (mail) return mail;
    if (Date.now() > deadline) {
      throw new Error(`expected ${count} mail(s) for ${address}, got ${mails.length}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Waits for message number `count` for `address` and returns the Auth verify link in it. */
export async function waitForAuthLink(address: string, count: number): Promise<string> {
  const mail = await waitForAuthMail(address, count);
  const match = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.text);
  if (!match) throw new Error(`no sign-in link in "${mail.subject}":\n${mail.text}`);
  return match[0];
}

/** Waits for message number `count` for `address` and returns its 6-digit sign-in code. */
export async function waitForSignInCode(address: string, count: number): Promise<string> {
  const mail = await waitForAuthMail(address, count);
  // The code stands on a line of its own in the plain-text part.
  const match = /^(\d{6})$/m.exec(mail.text);
  if (!match) throw new Error(`no sign-in code in "${mail.subject}":\n${mail.text}`);
  return match[1]!;
}

/** Signs in on /login/ with email + password; resolves once the page left /login/. */
export async function signInWithPassword(
  page: Page,
  user: Pick<TeamUser, 'email' | 'password'>,
  next = '/admin/',
): Promise<void> {
  await page.goto(`/login/?next=${encodeURIComponent(next)}`);
  await page.getByRole('button', { name: 'Use a password instead' }).click();
  await page.getByLabel('Email address').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).not.toHaveURL(/\/login\//);
}

/**
 * Asks /login/ for a magic link, opens the link Auth mailed (it passes Auth's /verify and comes
 * back to /auth/callback/), and waits until the callback has sent the browser on.
 */
export async function signInWithMagicLink(
  page: Page,
  email: string,
  next = '/admin/',
): Promise<void> {
  const before = (await mailsFor(email)).length;
  await page.goto(`/login/?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  const link = await waitForAuthLink(email, before + 1);
  await page.goto(link);
  await expect(page).not.toHaveURL(/\/(login|auth\/callback)\//);
}

/** The access token the site keeps in localStorage for the signed-in user (supabase-js's key). */
export async function accessTokenIn(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i) ?? '';
      if (key.startsWith('sb-') && key.endsWith('-auth-token')) {
        const value = JSON.parse(localStorage.getItem(key) ?? 'null') as {
          access_token?: string;
        } | null;
        if (value?.access_token) return value.access_token;
      }
    }
    return null;
  });
  if (!token) throw new Error('no session in localStorage: is the page signed in?');
  return token;
}

/** Saves a full-page screenshot to test-results/e2e/… and attaches it to the report. */
export async function snap(
  page: Page,
  testInfo: import('@playwright/test').TestInfo,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  const fullPage = options.fullPage ?? true;
  // A full-page capture draws the sticky top bar where the page is scrolled to: start at the top.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path, fullPage });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}
