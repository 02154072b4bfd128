// Loading, empty and failed states of the public home page that are hard to reach on
// purpose (no public list, a cleared tagline, settings that are slow or cannot be read, an API that
// cannot be reached): the API's answers are stubbed in the browser.
import { expect, test, type Page, type Route } from '@playwright/test';
import { E2E_SUPABASE_URL } from './ports';
import { expectAccessible, screenshots } from './public-kit';

const UNREACHABLE = 'We could not reach the server. Check your connection and try again.';
const SEED_TAGLINE = /Short, useful letters/; // supabase/seed.sql
const cors = { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/json' };

function json(route: Route, body: unknown) {
  return route.fulfill({ status: 200, headers: cors, body: JSON.stringify(body) });
}

/** Every API request fails as if the server could not be reached. */
async function unreachable(page: Page) {
  await page.route(`${E2E_SUPABASE_URL}/**`, (route) => route.abort('connectionrefused'));
}

test('home without public lists says signups are not open, with no form', async ({
  page,
}, testInfo) => {
  await page.route(`${E2E_SUPABASE_URL}/rest/v1/lists?**`, (route) => json(route, []));
  await page.goto('/');
  const card = page.getByRole('region', { name: 'Get the newsletter' });
  await expect(card.getByText('Signups are not open yet.')).toBeVisible();
  await expect(page.getByLabel('Email address')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Subscribe' })).toHaveCount(0);
  await expectAccessible(page, 'home, not open');
  await screenshots(page, testInfo, 'home-not-open');
});

test("home shows no made-up tagline or name: cleared, and the build's identity while loading", async ({
  page,
}) => {
  // The owner cleared the tagline.
  await page.route(`${E2E_SUPABASE_URL}/rest/v1/rpc/public_settings**`, (route) =>
    json(route, {
      site_name: 'Cleared',
      tagline: '',
      logo_path: null,
      show_subscriber_count: false,
    }),
  );
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Cleared' })).toBeVisible();
  await expect(page.getByText(SEED_TAGLINE)).toHaveCount(0);
  await page.unrouteAll({ behavior: 'ignoreErrors' });

  // Settings still loading: the identity the build read (the seed's) is in the static HTML, and
  // the browser's read of the same row changes nothing.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`${E2E_SUPABASE_URL}/rest/v1/rpc/public_settings**`, async (route) => {
    await held;
    await route.continue().catch(() => undefined);
  });
  await page.goto('/');
  await expect(page.getByLabel('Email address')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'The Postbox Letter' })).toBeVisible();
  await expect(page.getByText(SEED_TAGLINE)).toBeVisible();
  await expect(page.getByText('Postbox', { exact: true })).toHaveCount(0);
  release();
  await expect(page.getByRole('heading', { level: 1, name: 'The Postbox Letter' })).toBeVisible();
  await expect(page.getByText(SEED_TAGLINE)).toBeVisible();
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('home with the API unreachable says so and offers Try again', async ({ page }, testInfo) => {
  await unreachable(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'This page could not load' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByText(UNREACHABLE)).toBeVisible();
  // Neither a made-up identity (the footer may name the site as the build read it) nor a form
  // that can only fail.
  await expect(page.getByText('Postbox', { exact: true })).toHaveCount(0);
  await expect(page.getByText(SEED_TAGLINE)).toHaveCount(0);
  await expect(page.getByLabel('Email address')).toHaveCount(0);
  await expectAccessible(page, 'home, unreachable');
  await screenshots(page, testInfo, 'home-unreachable');

  await page.unrouteAll({ behavior: 'ignoreErrors' });
  // Try again reads the settings, the lists and the latest issues again.
  const latest = page.waitForResponse((r) => r.url().includes('rpc/archive_issues') && r.ok());
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'The Postbox Letter' })).toBeVisible();
  await expect(page.getByLabel('Email address')).toBeVisible();
  await latest;
});
