// Shared bits of the public-page journeys: unique addresses, mail from MailDev, links in it, the
// signup on the home page, and screenshots of a page at desktop and phone widths.
import { randomUUID } from 'node:crypto';
import { expect, type Page, type TestInfo } from '@playwright/test';
import { SECRET_KEY, sql } from './browser-client';
import { E2E_MAIL_WEB_PORT, E2E_SITE_URL, E2E_SUPABASE_URL } from './ports';
import { expectNoAxeViolations } from './page-checks';

const MAIL_API = `http://127.0.0.1:${E2E_MAIL_WEB_PORT}/api/email`;

export interface CaughtMail {
  subject: string;
  text: string;
  to: { address: string }[];
}

/** A fresh address per test, so runs never see each other's subscribers or mail. */
export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${randomUUID().slice(0, 8)}@example.com`;
}

/** Waits until `address` has at least `count` messages and returns them, oldest first. */
export async function waitForMail(address: string, count = 1): Promise<CaughtMail[]> {
  let mails: CaughtMail[] = [];
  await expect
    .poll(
      async () => {
        const all = (await (await fetch(MAIL_API)).json()) as CaughtMail[];
        mails = all.filter((m) => m.to.some((t) => t.address.toLowerCase() === address));
        return mails.length;
      },
      { message: `mail for ${address}`, timeout: 20_000 },
    )
    .toBeGreaterThanOrEqual(count);
  return mails;
}

/** The first link to `path` of the site under test in a message's text part. */
export function linkIn(mail: CaughtMail, path: string): string {
  const pattern = new RegExp(`${E2E_SITE_URL.replace(/[.:/]/g, '\\$&')}${path}\\S*`);
  const match = pattern.exec(mail.text);
  if (!match) throw new Error(`no ${path} link in mail "${mail.subject}":\n${mail.text}`);
  return match[0];
}

/** A call to the REST API as the service role (it bypasses RLS): the test acting, never the page. */
async function asServiceRole(path: string, init: RequestInit): Promise<unknown> {
  const response = await fetch(`${E2E_SUPABASE_URL}/rest/v1/${path}`, {
    ...init,
    headers: {
      apikey: SECRET_KEY,
      Authorization: `Bearer ${SECRET_KEY}`,
      'Content-Type': 'application/json',
      Prefer: 'return=representation',
    },
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method} ${path} → ${response.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Creates a public single opt-in list of this test only and returns its slug. */
export async function createPublicList(tag: string, name: string): Promise<string> {
  const slug = `${tag}-${randomUUID().slice(0, 8)}`;
  await asServiceRole('lists', {
    method: 'POST',
    body: JSON.stringify({ slug, name, visibility: 'public', optin: 'single' }),
  });
  return slug;
}

/** Changes a list as an admin would, through the service-role API. */
export async function updateList(slug: string, changes: Record<string, unknown>): Promise<void> {
  const rows = await asServiceRole(`lists?slug=eq.${slug}`, {
    method: 'PATCH',
    body: JSON.stringify(changes),
  });
  expect(rows, `list ${slug} updated`).toHaveLength(1);
}

/** Deletes a list through the service-role API. */
export async function deleteList(slug: string): Promise<void> {
  const rows = await asServiceRole(`lists?slug=eq.${slug}`, { method: 'DELETE' });
  expect(rows, `list ${slug} deleted`).toHaveLength(1);
}

/**
 * Every browser signup comes from 127.0.0.1, and SPEC §9 allows 30 per client address per 10
 * minutes; the journeys sign up more than that over a whole e2e run, so they clear that counter.
 */
export async function resetClientRateLimit(): Promise<void> {
  await sql(`delete from private.rate_limits where key = '127.0.0.1'`);
}

/** Signs `email` up on the page's form for exactly the lists named (by their label). */
export async function signUp(page: Page, email: string, lists?: string[]): Promise<void> {
  await resetClientRateLimit();
  await page.getByLabel('Email address').fill(email);
  if (lists) {
    const boxes = page.getByRole('group', { name: 'Lists' }).getByRole('checkbox');
    await expect(boxes.first()).toBeVisible();
    for (const box of await boxes.all()) {
      const name = (
        await box.evaluate((el) => (el as HTMLInputElement).labels?.[0]?.textContent ?? '')
      ).trim();
      await box.setChecked(lists.some((list) => name.startsWith(list)));
    }
  }
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
}

/** Full-page screenshots at 1280 and 390 px (light) plus the phone width in dark. */
export async function screenshots(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const [width, height, scheme] of [
    [1280, 900, 'light'],
    [390, 844, 'light'],
    [390, 844, 'dark'],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.emulateMedia({ colorScheme: scheme });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${name} overflows sideways at ${width} px`).toBe(0);
    const file = `${name}-${width}${scheme === 'dark' ? '-dark' : ''}.png`;
    const body = await page.screenshot({ fullPage: true, path: testInfo.outputPath(file) });
    await testInfo.attach(file, { body, contentType: 'image/png' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (original) await page.setViewportSize(original);
}

/** axe-core WCAG 2.1 A/AA checks of the page as it is now, in light and dark. */
export async function expectAccessible(page: Page, state: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoAxeViolations(page, `${state} (${colorScheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** A row of archive_issues(), as the build put it into /archive/'s props. */
export interface BuiltArchiveRow {
  id: string;
  slug: string;
  subject: string;
  finished_at: string;
}

/**
 * Makes the archive what the build read for /archive/ (its newest page, from the page's props):
 * issues archived since then, by other specs or this one, are unarchived until `restore()`. By
 * slug, since the build read its own emulator, whose ids were its own.
 */
export async function archiveAsBuilt(
  page: Page,
): Promise<{ built: BuiltArchiveRow[]; restore: () => Promise<void> }> {
  const html = await (await page.request.get('/archive/')).text();
  const json = /<script id="__NEXT_DATA__" type="application\/json">(.*?)<\/script>/s.exec(html);
  const built = (
    JSON.parse(json![1]!) as {
      props: { pageProps: { fallback: Record<string, BuiltArchiveRow[] | undefined> } };
    }
  ).props.pageProps.fallback.archive;
  expect(built, 'the build read the archive').toBeDefined();
  const { rows } = await sql(
    `update public.campaigns set archive = false
     where archive and status = 'sent' and slug <> all($1::text[]) returning id`,
    [built!.map((r) => r.slug)],
  );
  const hidden = (rows as { id: string }[]).map((r) => r.id);
  return {
    built: built!,
    restore: async () => {
      await sql(`update public.campaigns set archive = true where id = any($1::uuid[])`, [hidden]);
    },
  };
}
