// The chrome-less embed form (`/embed/?list=`) in an iframe of another page: it subscribes to its
// one list, shows no site frame, lets the host page show through, and explains an unknown list.
import { expect, test } from '@playwright/test';
import {
  createPublicList,
  deleteList,
  expectAccessible,
  resetClientRateLimit,
  screenshots,
  uniqueEmail,
  updateList,
} from './public-kit';
import { E2E_SITE_URL } from './ports';

test('embed: subscribes to its one list from inside an iframe', async ({ page }, testInfo) => {
  await page.goto('/embed/?list=product-updates');
  await expect(page.getByRole('heading', { name: 'Product updates' })).toBeVisible();
  // No site header, footer or list checkboxes; a transparent page.
  await expect(page.getByRole('contentinfo')).toHaveCount(0);
  await expect(page.getByRole('banner')).toHaveCount(0);
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
    'rgba(0, 0, 0, 0)',
  );
  await expectAccessible(page, 'embed');
  await screenshots(page, testInfo, 'embed');

  // Inside an iframe of a host page, as a site owner would use it.
  await page.setContent(
    `<body style="background:#fde68a;margin:0;padding:24px;font-family:sans-serif">
       <h1>My blog</h1>
       <iframe title="Newsletter signup" src="${E2E_SITE_URL}/embed/?list=product-updates"
         style="width:100%;max-width:480px;height:460px;border:0"></iframe>
     </body>`,
  );
  const frame = page.frameLocator('iframe[title="Newsletter signup"]');
  const email = uniqueEmail('embed');
  await frame.getByLabel('Email address').fill(email);
  await resetClientRateLimit();
  const request = page.waitForRequest((r) => r.url().endsWith('/functions/v1/subscribe'));
  await frame.getByRole('button', { name: 'Subscribe' }).click();
  expect((await request).postDataJSON()).toEqual({ email, lists: ['product-updates'] });
  // Single opt-in: subscribed at once. The outcome takes the form's place, under the list's name.
  await expect(frame.getByRole('heading', { name: 'You are subscribed' })).toBeVisible();
  await expect(frame.getByRole('heading', { name: 'You are subscribed' })).toBeFocused();
  await expect(frame.getByRole('heading', { name: 'Product updates' })).toBeVisible();
  await expect(frame.getByText(email)).toBeVisible();
  await testInfo.attach('embed-in-host', {
    body: await page.screenshot({ path: testInfo.outputPath('embed-in-host.png') }),
    contentType: 'image/png',
  });
});

test('embed: an unknown list and a missing list are explained', async ({ page }, testInfo) => {
  await page.goto('/embed/?list=no-such-list');
  await expect(page.getByRole('heading', { name: 'This list does not exist' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Subscribe' })).toHaveCount(0);
  await expectAccessible(page, 'embed unknown list');
  await screenshots(page, testInfo, 'embed-unknown');
  await page.goto('/embed/');
  await expect(page.getByRole('heading', { name: 'No list chosen' })).toBeVisible();
});

test('embed: a list removed while the form is open is reported on the form, keeping the input', async ({
  page,
}, testInfo) => {
  // The embed form has no list checkboxes, so the `lists` error has no control of its own: it is
  // shown on the form, and the address stays for another try.
  for (const [change, remove] of [
    ['made-private', (slug: string) => updateList(slug, { visibility: 'private' })],
    ['deleted', deleteList],
  ] as const) {
    const slug = await createPublicList('embed-gone', 'Short-lived list');
    await page.goto(`/embed/?list=${slug}`);
    await expect(page.getByRole('heading', { name: 'Short-lived list' })).toBeVisible();
    const email = uniqueEmail(`embed-${change}`);
    await page.getByLabel('Email address').fill(email);
    await remove(slug);
    await resetClientRateLimit();
    const button = page.getByRole('button', { name: 'Subscribe' });
    const answer = page.waitForResponse((r) => r.url().endsWith('/functions/v1/subscribe'));
    await button.click();
    expect((await answer).status(), change).toBe(404);
    await expect(page.getByRole('main').getByRole('alert')).toHaveText('That list does not exist.');
    await expect(page.getByLabel('Email address')).toHaveValue(email);
    await expect(button).toBeEnabled();
    if (change === 'deleted') {
      await expectAccessible(page, 'embed list gone');
      await screenshots(page, testInfo, 'embed-list-gone');
    }
  }
});

test('embed: a mistyped address is reported at its field, and typing clears it', async ({
  page,
}) => {
  await page.goto('/embed/?list=newsletter&button=Join%20us&theme=dark');
  await expect(page.getByRole('heading', { name: 'The newsletter' })).toBeVisible();
  await expect(page.locator('main')).toHaveAttribute('data-theme', 'dark');
  // The list is double opt-in: the hint says a confirmation email follows.
  await expect(page.getByText(/We will email you a link to confirm/)).toBeVisible();
  const email = page.getByLabel('Email address');
  await email.fill('not-an-address');
  await page.getByRole('button', { name: 'Join us' }).click();
  const error = page.getByRole('alert');
  await expect(error).toHaveText('Enter a valid email address.');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveAttribute('aria-describedby', (await error.getAttribute('id'))!);
  await expect(email).toBeFocused();
  await email.pressSequentially('x');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(email).not.toHaveAttribute('aria-invalid', 'true');

  // Double opt-in: the outcome asks to check the inbox.
  const address = uniqueEmail('embed-double');
  await email.fill(address);
  await resetClientRateLimit();
  await page.getByRole('button', { name: 'Join us' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeFocused();
  await expect(page.getByText(address)).toBeVisible();
  await expect(page.getByText(/Open it within 7 days/)).toBeVisible();
});
