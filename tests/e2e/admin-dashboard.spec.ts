// The dashboard end to end: the owner signs in by the emailed magic link (claim-owner makes them
// owner), sees totals, the chart and the feed, and a signup made meanwhile appears without reload.
import { expect, test, type Page } from '@playwright/test';
import {
  createTeamUser,
  insertRows,
  mailsFor,
  OWNER_EMAIL,
  signInWithPassword,
  snap,
  uniqueEmail,
  waitForAuthLink,
} from './team';
import { expectNoAxeViolations } from './page-checks';

/** The figure under a tile's label (the tiles are a <dl>: dt label, dd value). */
function tile(page: Page, label: string) {
  return page
    .locator('dt', { hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]');
}

test('the owner signs in by magic link and watches a new signup arrive live', async ({
  page,
}, testInfo) => {
  test.setTimeout(60_000);
  const before = (await mailsFor(OWNER_EMAIL)).length;
  await page.goto('/admin/');
  await expect(page).toHaveURL(/\/login\/\?next=%2Fadmin%2F$/);
  await page.getByLabel('Email address').fill(OWNER_EMAIL);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  const heading = page.getByRole('heading', { name: 'Check your inbox' });
  await expect(heading).toBeFocused();
  await expect(
    page.getByText(`We sent a sign-in link and a 6-digit code to ${OWNER_EMAIL}.`, {
      exact: false,
    }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /Resend in \d+ s/ })).toBeDisabled();
  await expectNoAxeViolations(page, 'check your inbox');
  await snap(page, testInfo, 'login-check-inbox-1280');

  const link = await waitForAuthLink(OWNER_EMAIL, before + 1);
  await page.goto(link);
  await expect(page).toHaveURL(/\/admin\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const banner = page.getByRole('banner');
  await expect(banner.getByText(OWNER_EMAIL)).toBeVisible();
  await expect(banner.getByText('Owner', { exact: true })).toBeVisible();

  const feed = page.getByRole('list', { name: 'Newest signups' });
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  await expect(page.getByRole('img', { name: /Signups per day/ })).toBeVisible();
  const subscribers = tile(page, 'Subscribers');
  const countBefore = Number((await subscribers.textContent())?.replace(/\D/g, ''));

  // A signup made elsewhere meanwhile (the service role stands in for the subscribe function).
  const email = uniqueEmail('live');
  await insertRows('subscribers', [{ email, name: 'Live Signup' }]);
  await expect(feed.getByRole('listitem').first()).toContainText(email);
  await expect(subscribers).toHaveText(String(countBefore + 1));

  await expectNoAxeViolations(page, 'dashboard');
  await snap(page, testInfo, 'dashboard-owner-1280');
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`dashboard at 1280 and 390 px (${colorScheme})`, async ({ page }, testInfo) => {
    // Two widths, each with a full-page axe scan and a full-page screenshot.
    test.slow();
    const viewer = await createTeamUser('viewer');
    await page.emulateMedia({ colorScheme });
    await signInWithPassword(page, viewer);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Subscriptions by list' })).toBeVisible();
    await expect(page.getByRole('img', { name: /Signups per day/ })).toBeVisible();
    // The seed's lists are there with their counts.
    await expect(page.getByRole('rowheader', { name: 'The newsletter' })).toBeVisible();
    await page.getByText('Show as a table').click();
    await expect(page.getByRole('region', { name: 'Signups per day, as a table' })).toBeVisible();
    await expectNoAxeViolations(page, `dashboard ${colorScheme}`);
    await snap(page, testInfo, `dashboard-1280-${colorScheme}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
    await expectNoAxeViolations(page, `dashboard 390 ${colorScheme}`);
    await snap(page, testInfo, `dashboard-390-${colorScheme}`);
  });
}

test('a count on the dashboard opens the subscribers of that list in that state', async ({
  page,
}) => {
  const viewer = await createTeamUser('viewer');
  await signInWithPassword(page, viewer);
  await page.getByRole('link', { name: /confirmed in The newsletter$/ }).click();
  await expect(page).toHaveURL(/\/admin\/subscribers\/\?list=newsletter&subscription=confirmed$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Subscribers' })).toBeVisible();
  // The filters show what the link asked for.
  const filters = page.getByRole('search', { name: 'Filter subscribers' });
  await expect(filters.getByLabel('List')).toHaveValue(/.+/);
  await expect(filters.getByLabel('List').locator('option:checked')).toHaveText('The newsletter');
  await expect(filters.getByLabel('Subscription')).toHaveValue('confirmed');
});

test('the dashboard shows a failed read with a working Retry', async ({ page }) => {
  const viewer = await createTeamUser('viewer');
  await signInWithPassword(page, viewer);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  let fail = true;
  await page.route('**/rest/v1/rpc/signups_per_day*', (route) =>
    fail
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: '{"code":"XX000","message":"The database is down."}',
        })
      : route.continue(),
  );
  await page.reload();
  const alert = page.getByRole('alert').filter({ hasText: 'The chart could not be loaded.' });
  // The catalogue's message, never the server's own text (SPEC §8).
  await expect(alert).toContainText('Something went wrong. Nothing was changed.');
  await expect(alert).not.toContainText('The database is down.');
  fail = false;
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('img', { name: /Signups per day/ })).toBeVisible();
});

test('subscription counts say so, and a viewer without lists is not offered Create a list', async ({
  page,
}) => {
  const viewer = await createTeamUser('viewer');
  await signInWithPassword(page, viewer);
  // One unit per row of tiles: people (addresses) and subscriptions (person × list), with the
  // noun agreeing with the figure ("1 subscription", "12 subscriptions").
  const people = page.locator('dl[aria-label="People"]');
  const subscriptions = page.locator('dl[aria-label="Subscriptions"]');
  await expect(people.locator('dt')).toHaveText(['Subscribers', 'Blocklisted']);
  await expect(subscriptions.locator('dt')).toHaveText(['Confirmed', 'Pending', 'Unsubscribed']);
  for (const [label, one, other] of [
    ['Subscribers', 'enabled address', 'enabled addresses'],
    ['Blocklisted', 'address, never mailed', 'addresses, never mailed'],
    ['Confirmed', 'subscription', 'subscriptions'],
    ['Pending', 'subscription', 'subscriptions'],
    ['Unsubscribed', 'subscription', 'subscriptions'],
  ] as const) {
    const value = Number((await tile(page, label).textContent())?.replace(/\D/g, ''));
    await expect(tile(page, label).locator('xpath=following-sibling::dd[1]')).toHaveText(
      value === 1 ? one : other,
    );
  }

  // No lists yet (the list read is stubbed empty): a viewer cannot create one, so is not asked to.
  await page.route('**/rest/v1/lists?**', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '[]' }),
  );
  await page.reload();
  const byList = page
    .getByRole('heading', { name: 'By list' })
    .locator('xpath=ancestor::section[1]');
  await expect(page.getByText('No lists yet.')).toBeVisible();
  await expect(page.getByText('An admin can create the first list.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create a list' })).toHaveCount(0);
  await expect(byList).not.toContainText('Create one to start collecting signups');
});
