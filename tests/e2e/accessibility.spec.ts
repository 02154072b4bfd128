// Automated WCAG 2.1 A/AA checks (axe-core) of the exported pages, in both colour schemes: every
// state of the signup form and the states of each public page that need no email. States reached
// through emails (confirmed, waitlist, preferences, unsubscribed) are checked in the public-*
// journeys where they happen.
import { expect, test } from '@playwright/test';
import { formAlert, SUBSCRIBE_URL } from './helpers';
import { expectAccessible, resetClientRateLimit, uniqueEmail } from './public-kit';

test('home page: empty, invalid, refused and successful submission', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('checkbox', { name: /The newsletter/ })).toBeChecked();
  await expectAccessible(page, 'empty form');

  await page.getByLabel('Email address').fill('ada@example');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByText('Enter a valid email address.')).toBeVisible();
  await expectAccessible(page, 'invalid email');

  await page.route(SUBSCRIBE_URL, (route) =>
    route.fulfill({
      status: 429,
      headers: { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/json' },
      body: '{"error":{"code":"rate_limited","message":"Too many attempts. Try again in a minute."}}',
    }),
  );
  await page.getByLabel('Email address').fill('ada@example.com');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(formAlert(page)).toBeVisible();
  await expectAccessible(page, 'refused submission');

  await page.unroute(SUBSCRIBE_URL);
  await resetClientRateLimit();
  await page.getByLabel('Email address').fill(uniqueEmail('axe'));
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  await expectAccessible(page, 'check your inbox');
});

test('referral link on the home page', async ({ page }) => {
  await page.goto('/?ref=abc123&list=early-access');
  await expect(page.getByText('A friend invited you.')).toBeVisible();
  await expectAccessible(page, 'referral');
});

test('public pages without a valid link', async ({ page }) => {
  // Seven pages, each loaded and scanned by axe.
  test.slow();
  for (const [path, heading] of [
    ['/confirm/?token=x.y', 'This link is not valid'],
    ['/confirm/', 'This link is incomplete'],
    ['/unsubscribe/?token=x.y', 'This link is not valid'],
    ['/preferences/?token=x.y', 'This link is not valid'],
    ['/waitlist/?code=nobody-has-this', 'We could not find that place in line'],
    ['/embed/?list=no-such-list', 'This list does not exist'],
    ['/embed/?list=newsletter', 'The newsletter'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    await expectAccessible(page, path);
  }
});

test('404 page', async ({ page }) => {
  await page.goto('/no-such-page/');
  await expectAccessible(page, '404');
});
