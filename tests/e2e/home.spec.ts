// The exported home page in Chromium against the e2e emulator: signup form shell, validation, the real
// answer of the (not yet deployed) `subscribe` function, keyboard use, and screenshots at two widths.
import { expect, test, type Page, type Request } from '@playwright/test';
import { formAlert, NOT_OPEN, SUBSCRIBE_URL, UNREACHABLE } from './helpers';
import { E2E_SITE_URL, E2E_SUPABASE_URL } from './ports';

/**
 * What the browser must end up showing, decided by asking the emulator the same questions the
 * browser asks (preflight, then POST). A 404 the page cannot read (no CORS headers, as hosted
 * Supabase answers for a function that is not deployed) is a network failure to the browser.
 */
async function expectedSubscribeMessage(): Promise<{ message: string; why: string }> {
  const preflight = await fetch(SUBSCRIBE_URL, {
    method: 'OPTIONS',
    headers: {
      Origin: E2E_SITE_URL,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'apikey,content-type,x-client-info',
    },
  });
  const allowOrigin = preflight.headers.get('access-control-allow-origin');
  if (!preflight.ok || (allowOrigin !== '*' && allowOrigin !== E2E_SITE_URL)) {
    return {
      message: UNREACHABLE,
      why: `preflight answered ${preflight.status} with Access-Control-Allow-Origin=${allowOrigin}`,
    };
  }
  const post = await fetch(SUBSCRIBE_URL, {
    method: 'POST',
    headers: { Origin: E2E_SITE_URL, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'probe@example.com' }),
  });
  const body = await post.text();
  if (post.status === 404 && !body.includes('"error"')) {
    return { message: NOT_OPEN, why: `POST answered 404 ${body}` };
  }
  throw new Error(
    `subscribe now answers ${post.status} ${body}: the function exists, update this spec for the real flow`,
  );
}

function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  return problems;
}

test.describe('home page', () => {
  test('renders the site and the signup form with accessible names', async ({ page }) => {
    const problems = watchConsole(page);
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle('Postbox');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1, name: 'Postbox' })).toBeVisible();

    const email = page.getByRole('textbox', { name: 'Email address' });
    await expect(email).toBeVisible();
    await expect(email).toHaveAttribute('type', 'email');
    await expect(email).toHaveAttribute('autocomplete', 'email');
    // The Mail icon sits inside the email field, decorative (the label names the field).
    const icon = page.locator('svg.lucide-mail');
    await expect(icon).toHaveAttribute('aria-hidden', 'true');
    const [iconBox, fieldBox] = [await icon.boundingBox(), await email.boundingBox()];
    expect(iconBox && fieldBox).toBeTruthy();
    expect(iconBox!.x).toBeGreaterThan(fieldBox!.x);
    expect(iconBox!.x + iconBox!.width).toBeLessThan(fieldBox!.x + fieldBox!.width);
    expect(iconBox!.y).toBeGreaterThan(fieldBox!.y);
    expect(iconBox!.y + iconBox!.height).toBeLessThan(fieldBox!.y + fieldBox!.height);

    const name = page.getByRole('textbox', { name: 'Name (optional)' });
    await expect(name).toBeVisible();
    await expect(name).not.toHaveAttribute('required');

    const button = page.getByRole('button', { name: 'Subscribe' });
    await expect(button).toBeEnabled();
    await expect(button.locator('svg.lucide-arrow-right')).toHaveAttribute('aria-hidden', 'true');
    expect(problems).toEqual([]);
  });

  test('shows the inline error for an invalid address and sends nothing', async ({ page }) => {
    const sent: Request[] = [];
    page.on('request', (req) => {
      if (req.url().startsWith(E2E_SUPABASE_URL)) sent.push(req);
    });
    await page.goto('/');
    const email = page.getByLabel('Email address');
    await email.fill('ada@example');
    await page.getByLabel('Name (optional)').fill('Ada');
    await page.getByRole('button', { name: 'Subscribe' }).click();

    const error = page.getByText('Enter a valid email address.');
    await expect(error).toBeVisible();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription('Enter a valid email address.');
    await expect(email).toBeFocused();
    await expect(email).toHaveValue('ada@example');
    await expect(page.getByLabel('Name (optional)')).toHaveValue('Ada');
    expect(sent).toEqual([]);

    // Editing the field clears the error.
    await email.fill('ada@example.com');
    await expect(error).toBeHidden();
    await expect(email).not.toHaveAttribute('aria-invalid');
  });

  test('sends a valid address to the emulator and shows its real answer', async ({
    page,
  }, testInfo) => {
    const expected = await expectedSubscribeMessage();
    testInfo.annotations.push({ type: 'subscribe outcome', description: expected.why });
    await page.goto('/');
    // Record every busy state of the button, however short the request is.
    await page.evaluate(() => {
      const w = window as unknown as { busyStates: string[] };
      w.busyStates = [];
      const button = document.querySelector('button[type="submit"]')!;
      new MutationObserver(() => {
        w.busyStates.push(
          `${button.getAttribute('aria-busy')}/${(button as HTMLButtonElement).disabled}`,
        );
      }).observe(button, { attributes: true, attributeFilter: ['aria-busy', 'disabled'] });
    });

    await page.getByLabel('Email address').fill('Grace.Hopper@Example.com');
    await page.getByLabel('Name (optional)').fill('Grace Hopper');
    const request = page.waitForRequest(
      (req) => req.url() === SUBSCRIBE_URL && req.method() === 'POST',
    );
    await page.getByRole('button', { name: 'Subscribe' }).click();

    // The browser called the emulator's functions endpoint with the normalised body and the key.
    const sent = await request;
    expect(sent.postDataJSON()).toEqual({
      email: 'grace.hopper@example.com',
      name: 'Grace Hopper',
    });
    const headers = await sent.allHeaders();
    expect(headers['apikey']).toMatch(/^sb_publishable_/);
    expect(headers['content-type']).toBe('application/json');
    // How it ended on the wire matches the emulator's answer: refused by CORS, or a readable 404.
    const response = await sent.response();
    if (expected.message === UNREACHABLE) {
      expect(response).toBeNull();
      expect(sent.failure()?.errorText).toBe('net::ERR_FAILED');
    } else {
      expect(response?.status()).toBe(404);
    }

    const alert = formAlert(page);
    await expect(alert).toHaveText(expected.message);
    await expect(page.getByText(/check your inbox|you are subscribed/i)).toHaveCount(0);
    // Nothing the visitor typed is lost, and the form can be sent again.
    await expect(page.getByLabel('Email address')).toHaveValue('Grace.Hopper@Example.com');
    await expect(page.getByLabel('Name (optional)')).toHaveValue('Grace Hopper');
    const button = page.getByRole('button', { name: 'Subscribe' });
    await expect(button).toBeEnabled();
    await expect(button).toHaveAttribute('aria-busy', 'false');
    const busyStates = await page.evaluate(
      () => (window as unknown as { busyStates: string[] }).busyStates,
    );
    expect(busyStates).toContain('true/true');
  });

  test('works with the keyboard alone', async ({ page }) => {
    await page.goto('/');
    // First Tab reaches the skip link, which moves focus to the main content.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Email address')).toBeFocused();
    await page.keyboard.type('not-an-address');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Name (optional)')).toBeFocused();
    await page.keyboard.press('Tab');
    const button = page.getByRole('button', { name: 'Subscribe' });
    await expect(button).toBeFocused();
    // The focus ring is visible on the button.
    const outline = await button.evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline).toBe('solid');
    await page.keyboard.press('Enter');
    await expect(page.getByText('Enter a valid email address.')).toBeVisible();
    await expect(page.getByLabel('Email address')).toBeFocused();

    // Fix the address and submit with Enter from inside the field.
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('ada@example.com');
    const request = page.waitForRequest(
      (req) => req.url() === SUBSCRIBE_URL && req.method() === 'POST',
    );
    await page.keyboard.press('Enter');
    expect((await request).postDataJSON()).toEqual({ email: 'ada@example.com' });
    await expect(formAlert(page)).toBeVisible();
  });

  test('answers unknown addresses with the 404 page', async ({ page }) => {
    const response = await page.goto('/no-such-page/');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to the home page' }).click();
    await expect(page).toHaveURL(`${E2E_SITE_URL}/`);
    await expect(page.getByRole('heading', { level: 1, name: 'Postbox' })).toBeVisible();
  });

  for (const [label, width, height] of [
    ['desktop', 1280, 900],
    ['mobile', 390, 844],
  ] as const) {
    test(`screenshot at ${width} px (${label})`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height });
      await page.goto('/');
      await expect(page.getByRole('button', { name: 'Subscribe' })).toBeVisible();
      // Nothing may overflow sideways at this width.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBe(0);
      const empty = await page.screenshot({
        fullPage: true,
        path: testInfo.outputPath(`home-${width}.png`),
      });
      await testInfo.attach(`home-${width}`, { body: empty, contentType: 'image/png' });

      await page.getByLabel('Email address').fill('ada@example');
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await expect(page.getByText('Enter a valid email address.')).toBeVisible();
      const invalid = await page.screenshot({
        fullPage: true,
        path: testInfo.outputPath(`home-${width}-invalid.png`),
      });
      await testInfo.attach(`home-${width}-invalid`, { body: invalid, contentType: 'image/png' });

      await page.getByLabel('Email address').fill('ada@example.com');
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await expect(formAlert(page)).toBeVisible();
      const failed = await page.screenshot({
        fullPage: true,
        path: testInfo.outputPath(`home-${width}-error.png`),
      });
      await testInfo.attach(`home-${width}-error`, { body: failed, contentType: 'image/png' });

      // The same state in the dark colour scheme.
      await page.emulateMedia({ colorScheme: 'dark' });
      const dark = await page.screenshot({
        fullPage: true,
        path: testInfo.outputPath(`home-${width}-error-dark.png`),
      });
      await testInfo.attach(`home-${width}-error-dark`, { body: dark, contentType: 'image/png' });
    });
  }
});
