// The embed page's failed and incomplete states: an API that cannot be reached (stubbed in the
// browser), an address without ?list=, and a browser without JavaScript.
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

test('embed without JavaScript says so and links to the site’s signup page', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto('/embed/?list=newsletter');
    // Playwright's text and role locators skip <noscript>: read what the page renders instead.
    const shown = await page.evaluate(() => {
      const main = document.querySelector('main');
      const link = main?.querySelector('noscript a');
      return {
        text: main instanceof HTMLElement ? main.innerText.trim() : null,
        href: link?.getAttribute('href') ?? null,
        target: link?.getAttribute('target') ?? null,
      };
    });
    // The message and the link, and no spinner that never stops.
    expect(shown.text).toMatch(
      /^This signup form needs JavaScript\. Subscribe on .+’s page instead\.$/,
    );
    expect(shown).toMatchObject({ href: '/', target: '_top' });
  } finally {
    await context.close();
  }
});
