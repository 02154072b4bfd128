// Signup form states that are hard to reach on purpose against the real function (a deployment
// without `subscribe`, a server-side refusal, the rate limit, a held request, no network): its
// answers are stubbed in the browser. The real browser → emulator path is in home.spec.ts.
import { expect, test } from '@playwright/test';
import { formAlert, NOT_OPEN, SUBSCRIBE_URL, UNREACHABLE } from './helpers';
import { screenshots } from './public-kit';

test.describe('signup form states for answers of the subscribe function', () => {
  const cors = { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/json' };

  test('a readable 404 (function not deployed) says signups are not open', async ({ page }) => {
    await page.route(SUBSCRIBE_URL, (route) =>
      route.fulfill({ status: 404, headers: cors, body: '{"code":"NOT_FOUND","message":"x"}' }),
    );
    await page.goto('/');
    await page.getByLabel('Email address').fill('ada@example.com');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(formAlert(page)).toHaveText(NOT_OPEN);
    await expect(page.getByLabel('Email address')).toHaveValue('ada@example.com');
  });

  test('the rate limit and a network failure are shown on the form, keeping the input', async ({
    page,
  }) => {
    await page.route(SUBSCRIBE_URL, (route) =>
      route.fulfill({
        status: 429,
        headers: { ...cors, 'Retry-After': '60' },
        body: JSON.stringify({
          error: { code: 'rate_limited', message: 'Too many attempts. Try again in a minute.' },
        }),
      }),
    );
    await page.goto('/');
    await page.getByLabel('Email address').fill('ada@example.com');
    await page.getByLabel('Name (optional)').fill('Ada');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(formAlert(page)).toHaveText('Too many attempts. Try again in a minute.');
    await expect(page.getByLabel('Email address')).toHaveValue('ada@example.com');
    await expect(page.getByLabel('Name (optional)')).toHaveValue('Ada');

    await page.unroute(SUBSCRIBE_URL);
    await page.route(SUBSCRIBE_URL, (route) => route.abort('failed'));
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(formAlert(page)).toHaveText(UNREACHABLE);
    await expect(page.getByLabel('Email address')).toHaveValue('ada@example.com');
  });

  test('a server-side invalid_email is shown on the email field', async ({ page }) => {
    await page.route(SUBSCRIBE_URL, (route) =>
      route.fulfill({
        status: 422,
        headers: cors,
        body: JSON.stringify({
          error: { code: 'invalid_email', message: 'Enter a valid email address.' },
        }),
      }),
    );
    await page.goto('/');
    const email = page.getByLabel('Email address');
    await email.fill('ada@example.com');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(email).toHaveAccessibleDescription('Enter a valid email address.');
    await expect(email).toBeFocused();
  });

  test('list_not_found with no list checkboxes (one public list) is shown on the form', async ({
    page,
  }, testInfo) => {
    const lists = [
      {
        slug: 'only-list',
        name: 'Only list',
        description: '',
        optin: 'double',
        waitlist: false,
        created_at: '2026-01-01T00:00:00Z',
      },
    ];
    await page.route('**/rest/v1/lists?**', (route) =>
      route.fulfill({ status: 200, headers: cors, body: JSON.stringify(lists) }),
    );
    await page.route(SUBSCRIBE_URL, (route) =>
      route.fulfill({
        status: 404,
        headers: cors,
        body: JSON.stringify({
          error: { code: 'list_not_found', message: 'That list does not exist.', field: 'lists' },
        }),
      }),
    );
    await page.goto('/');
    await page.getByLabel('Email address').fill('ada@example.com');
    await page.getByLabel('Name (optional)').fill('Ada');
    await expect(page.getByRole('checkbox')).toHaveCount(0);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(formAlert(page)).toHaveText('That list does not exist.');
    await expect(page.getByLabel('Email address')).toHaveValue('ada@example.com');
    await expect(page.getByLabel('Name (optional)')).toHaveValue('Ada');
    await screenshots(page, testInfo, 'home-list-not-found');
    await page.unrouteAll();
    // With no public list at all there is no form to fail: see home-states.spec.ts.
  });

  test('a name of 60 emoji (60 characters, 120 UTF-16 units) can be typed in full', async ({
    page,
  }) => {
    // SPEC §5 counts characters; a `maxlength` attribute counts UTF-16 units and would stop at 50.
    const emojiName = '😀'.repeat(60);
    await page.goto('/');
    const name = page.getByLabel('Name (optional)');
    await name.fill(emojiName);
    await expect(name).toHaveValue(emojiName);
    await name.fill('');
    await name.pressSequentially('🎉'.repeat(55));
    await expect(name).toHaveValue('🎉'.repeat(55));
  });

  test('shows the busy button, then the confirmation state', async ({ page }, testInfo) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(SUBSCRIBE_URL, async (route) => {
      await held;
      await route.fulfill({ status: 200, headers: cors, body: '{"status":"pending"}' });
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await page.getByLabel('Email address').fill('Ada@Example.com');
    const button = page.getByRole('button', { name: 'Subscribe' });
    await button.click();
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute('aria-busy', 'true');
    await expect(button.locator('svg.lucide-loader-circle')).toBeVisible();
    await expect(page.getByLabel('Email address')).toHaveAttribute('readonly');
    await testInfo.attach('home-390-busy', {
      body: await page.screenshot({ path: testInfo.outputPath('home-390-busy.png') }),
      contentType: 'image/png',
    });
    release();
    const heading = page.getByRole('heading', { name: 'Check your inbox' });
    await expect(heading).toBeFocused();
    await expect(page.getByText('We sent a confirmation link to ada@example.com.')).toBeVisible();
    await testInfo.attach('home-390-pending', {
      body: await page.screenshot({ path: testInfo.outputPath('home-390-pending.png') }),
      contentType: 'image/png',
    });
  });
});
