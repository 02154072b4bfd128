// The embed page's failed and incomplete states: an API that cannot be reached (stubbed in the
// browser) and an address without ?list=.
import { expect, test, type Page } from '@playwright/test';
import { E2E_SUPABASE_URL } from './ports';
import { expectAccessible, screenshots } from './public-kit';

const UNREACHABLE = 'We could not reach the server. Check your connection and try again.';

/** Every API request fails as if the server could not be reached. */
async function unreachable(page: Page) {
  await page.route(`${E2E_SUPABASE_URL}/**`, (route) => route.abort('connectionrefused'));
}

test('embed with the API unreachable fails fast with Try again', async ({ page }, testInfo) => {
  await unreachable(page);
  await page.goto('/embed/?list=newsletter');
  // Within a few seconds, not after silent retries.
  await expect(page.getByRole('heading', { name: 'The signup form could not load' })).toBeVisible({
    timeout: 4_000,
  });
  await expect(page.getByText(UNREACHABLE)).toBeVisible();
  await expect(page.getByText('Failed to fetch')).toHaveCount(0);
  await expectAccessible(page, 'embed, unreachable');
  await screenshots(page, testInfo, 'embed-unreachable');

  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'The newsletter' })).toBeVisible();
  await expect(page.getByLabel('Email address')).toBeVisible();
});

test('embed without ?list= explains itself without errors', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  await page.goto('/embed/');
  await expect(page.getByRole('heading', { name: 'No list chosen' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(errors).toEqual([]);
});
