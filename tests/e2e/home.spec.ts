// The exported home page in Chromium against the e2e emulator: identity from `settings`, the signup
// form with its list choice, validation, a real signup through the `subscribe` function (and its
// confirmation email), keyboard use, and screenshots at two widths.
import { expect, test, type Page, type Request } from '@playwright/test';
import { sql } from './browser-client';
import { SUBSCRIBE_URL } from './helpers';
import { E2E_SITE_URL } from './ports';
import { linkIn, resetClientRateLimit, uniqueEmail, waitForMail } from './public-kit';

const SITE_NAME = 'The Postbox Letter'; // supabase/seed.sql

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
    await expect(page).toHaveTitle(SITE_NAME);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1, name: SITE_NAME })).toBeVisible();
    await expect(page.getByText(/^Short, useful letters/)).toBeVisible();

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

    // Three public lists: a choice, with the main (oldest) list checked; the private list is absent.
    const lists = page.getByRole('group', { name: 'Lists' });
    await expect(lists.getByRole('checkbox')).toHaveCount(3);
    await expect(lists.getByRole('checkbox', { name: /The newsletter/ })).toBeChecked();
    await expect(lists.getByRole('checkbox', { name: /Product updates/ })).not.toBeChecked();
    await expect(lists.getByRole('checkbox', { name: /Early access waitlist/ })).not.toBeChecked();
    await expect(page.getByText('Beta testers')).toHaveCount(0);

    // The honeypot is out of sight, out of the tab order and hidden from assistive technology.
    const honeypot = page.locator('input[name="website"]');
    await expect(honeypot).toHaveAttribute('tabindex', '-1');
    await expect(honeypot).toHaveAttribute('autocomplete', 'off');
    await expect(honeypot).not.toBeInViewport();
    await expect(page.getByRole('textbox', { name: 'Website' })).toHaveCount(0);

    const button = page.getByRole('button', { name: 'Subscribe' });
    await expect(button).toBeEnabled();
    await expect(button.locator('svg.lucide-arrow-right')).toHaveAttribute('aria-hidden', 'true');
    expect(problems).toEqual([]);
  });

  test('shows the inline error for an invalid address and sends nothing', async ({ page }) => {
    const sent: Request[] = [];
    page.on('request', (req) => {
      if (req.url().startsWith(SUBSCRIBE_URL)) sent.push(req);
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

  test('signs up through the emulator: busy button, then check your inbox, then the email', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('checkbox', { name: /The newsletter/ })).toBeChecked();
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

    const email = uniqueEmail('grace');
    await resetClientRateLimit();
    await page.getByLabel('Email address').fill(`  ${email.toUpperCase()} `);
    await page.getByLabel('Name (optional)').fill('Grace Hopper');
    const request = page.waitForRequest(
      (req) => req.url() === SUBSCRIBE_URL && req.method() === 'POST',
    );
    await page.getByRole('button', { name: 'Subscribe' }).click();

    // The browser called the emulator's functions endpoint with the normalised body and the key.
    const sent: Request = await request;
    expect(sent.postDataJSON()).toEqual({ email, name: 'Grace Hopper', lists: ['newsletter'] });
    const headers = await sent.allHeaders();
    expect(headers['apikey']).toMatch(/^sb_publishable_/);
    expect(headers['content-type']).toBe('application/json');
    expect((await sent.response())?.status()).toBe(200);

    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeFocused();
    await expect(page.getByText(`We sent a confirmation link to ${email}.`)).toBeVisible();
    const busyStates = await page.evaluate(
      () => (window as unknown as { busyStates: string[] }).busyStates,
    );
    expect(busyStates).toContain('true/true');

    // The confirmation email arrived, with a link back to this site.
    const [mail] = await waitForMail(email);
    expect(linkIn(mail!, '/confirm/')).toMatch(/\/confirm\/\?token=/);
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
    // The three list checkboxes come next, each reachable and toggled with Space.
    for (const list of [/The newsletter/, /Product updates/, /Early access waitlist/]) {
      await page.keyboard.press('Tab');
      await expect(page.getByRole('checkbox', { name: list })).toBeFocused();
    }
    await page.keyboard.press('Space');
    await expect(page.getByRole('checkbox', { name: /Early access waitlist/ })).toBeChecked();
    await page.keyboard.press('Space');
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
    const email = uniqueEmail('keys');
    await resetClientRateLimit();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(email);
    const request = page.waitForRequest(
      (req) => req.url() === SUBSCRIBE_URL && req.method() === 'POST',
    );
    await page.keyboard.press('Enter');
    expect((await request).postDataJSON()).toEqual({ email, lists: ['newsletter'] });
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeFocused();
  });

  test('the subscriber count updates live when a reader confirms (Realtime, not the 30 s poll)', async ({
    page,
  }) => {
    const problems = watchConsole(page);
    // The page joins the public topic with the lean Realtime client, loaded on demand.
    const joined = new Promise<void>((resolve) =>
      page.on('websocket', (ws) => {
        if (!ws.url().includes('/realtime/v1')) return;
        ws.on('framereceived', ({ payload }) => {
          const text = String(payload);
          if (text.includes('realtime:subscriber-count') && text.includes('phx_reply')) resolve();
        });
      }),
    );
    await page.goto('/');
    const count = page.getByText(/^Join [\d,]+ readers?$/);
    await expect(count).toBeVisible();
    await joined;
    const before = Number((await count.innerText()).replace(/\D/g, ''));
    const { rows } = await sql(
      `with reader as (
         insert into public.subscribers (email) values ($1) returning id
       )
       insert into public.subscriptions (subscriber_id, list_id, status)
       select reader.id, l.id, 'confirmed' from reader, public.lists l where l.slug = 'newsletter'
       returning subscriber_id`,
      [uniqueEmail('live-count')],
    );
    try {
      // Well before the 30 s poll: the broadcast made the page read the count again.
      await expect(page.getByText(`Join ${(before + 1).toLocaleString('en')} readers`)).toBeVisible(
        {
          timeout: 8_000,
        },
      );
      expect(problems).toEqual([]);
    } finally {
      await sql(`delete from public.subscribers where id = $1`, [
        (rows[0] as { subscriber_id: string }).subscriber_id,
      ]);
    }
  });

  test('answers unknown addresses with the 404 page', async ({ page }) => {
    const response = await page.goto('/no-such-page/');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to the home page' }).click();
    await expect(page).toHaveURL(`${E2E_SITE_URL}/`);
    await expect(page.getByRole('heading', { level: 1, name: SITE_NAME })).toBeVisible();
  });

  for (const [label, width, height] of [
    ['desktop', 1280, 900],
    ['mobile', 390, 844],
  ] as const) {
    test(`screenshot at ${width} px (${label})`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height });
      await page.goto('/');
      await expect(page.getByRole('checkbox', { name: /The newsletter/ })).toBeChecked();
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

      await page.getByLabel('Email address').fill(uniqueEmail('shot'));
      await resetClientRateLimit();
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
      const done = await page.screenshot({
        fullPage: true,
        path: testInfo.outputPath(`home-${width}-pending.png`),
      });
      await testInfo.attach(`home-${width}-pending`, { body: done, contentType: 'image/png' });

      // The same state in the dark colour scheme.
      await page.emulateMedia({ colorScheme: 'dark' });
      const dark = await page.screenshot({
        fullPage: true,
        path: testInfo.outputPath(`home-${width}-pending-dark.png`),
      });
      await testInfo.attach(`home-${width}-pending-dark`, { body: dark, contentType: 'image/png' });
    });
  }
});
