// Share & embed end to end: the admin page (every state, the snippets it hands out, the live
// preview), the plain HTML form snippet on a foreign page subscribing with JavaScript turned off,
// and the iframe snippet on a foreign page sizing itself so the whole form shows at 330 and 390 px.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { formSnippet, iframeSnippet } from '../../components/admin/share/snippets';
import { sql } from './browser-client';
import { screenshotsAtBothWidths } from './page-checks';
import { createPublicList, resetClientRateLimit, uniqueEmail } from './public-kit';
import { E2E_SITE_URL, E2E_SUPABASE_URL } from './ports';
import { createTeamUser, signInWithPassword } from './team';

const SUBSCRIBE_URL = `${E2E_SUPABASE_URL}/functions/v1/subscribe`;

/** A host page on its own port (another origin than the site), as a blog would be. */
async function foreignPage(body: string): Promise<{ url: string; server: Server }> {
  const html = `<!doctype html><html><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1"><title>My blog</title></head>
    <body style="margin:0;padding:12px;font-family:sans-serif;background:#fde68a">
    <h1>My blog</h1>${body}<p>Footer text of the blog.</p></body></html>`;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, server };
}

async function subscriptionOf(email: string, slug: string) {
  const result = await sql(
    `select s.status from public.subscriptions s join public.subscribers u on u.id = s.subscriber_id
     join public.lists l on l.id = s.list_id where u.email = $1 and l.slug = $2`,
    [email, slug],
  );
  return result.rows as { status: string }[];
}

test.describe('with JavaScript turned off', () => {
  test.use({ javaScriptEnabled: false });

  test('the plain HTML form snippet on another site subscribes and lands on the thank-you page', async ({
    page,
  }) => {
    const slug = await createPublicList('nojs', 'No-JS readers');
    const host = await foreignPage(
      formSnippet(SUBSCRIBE_URL, { list: slug, buttonText: 'Join', theme: 'auto' }, 'No-JS'),
    );
    try {
      await resetClientRateLimit();
      await page.goto(host.url);
      const email = uniqueEmail('nojs');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Name (optional)').fill('Nojs Reader');
      await page.getByRole('button', { name: 'Join' }).click();
      // subscribe's 303 leads to the site's own static page, readable without scripts.
      await expect(page).toHaveURL(`${E2E_SITE_URL}/subscribe/thanks/`);
      await expect(page.getByRole('heading', { name: 'Thank you for subscribing' })).toBeVisible();
      expect(await subscriptionOf(email, slug)).toEqual([{ status: 'confirmed' }]);
    } finally {
      host.server.close();
    }
  });

  test('the outcome pages carry their text in the static HTML', async ({ page }) => {
    for (const [path, heading] of [
      ['check-inbox', 'Check your inbox'],
      ['invalid', 'That email address does not look right'],
      ['too-many', 'Too many attempts'],
      ['no-list', 'This list does not exist'],
    ]) {
      await page.goto(`/subscribe/${path}/`);
      await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    }
  });
});

async function expectWholeForm(page: Page, width: number, button: string) {
  await page.setViewportSize({ width, height: 800 });
  const iframe = page.locator('iframe[data-postbox-embed]');
  const frame = page.frameLocator('iframe[data-postbox-embed]');
  await expect(frame.getByRole('button', { name: button })).toBeVisible();
  // The host script set the iframe to the form's height: the form's bottom edge fits inside.
  await expect
    .poll(async () => {
      const frameBox = (await iframe.boundingBox())!;
      const buttonBox = (await frame.getByRole('button', { name: button }).boundingBox())!;
      const hint = (await frame.getByText(/Unsubscribe any time/).boundingBox())!;
      const inside =
        buttonBox.x >= frameBox.x - 0.5 &&
        buttonBox.x + buttonBox.width <= frameBox.x + frameBox.width + 0.5 &&
        hint.y + hint.height <= frameBox.y + frameBox.height + 0.5;
      return inside;
    })
    .toBe(true);
  const scrolls = await frame
    .locator('html')
    .evaluate((html) => html.scrollHeight > html.clientHeight + 1);
  expect(scrolls, `no inner scrolling at ${width} px`).toBe(false);
  await page.screenshot({ path: `test-results/share-embed-foreign-${width}.png`, fullPage: true });
}

test('the iframe snippet on another site sizes itself to show the whole form', async ({ page }) => {
  const slug = await createPublicList('iframe', 'Iframe readers');
  const snippet = iframeSnippet(
    E2E_SITE_URL,
    { list: slug, buttonText: 'Join the list', theme: 'light' },
    'Iframe readers',
  );
  const host = await foreignPage(snippet);
  try {
    for (const width of [330, 390]) {
      await page.goto(host.url);
      await expectWholeForm(page, width, 'Join the list');
    }
    // Only the embed's origin is trusted: a message from the host page itself is ignored.
    const before = await page.locator('iframe[data-postbox-embed]').evaluate((f) => f.style.height);
    await page.evaluate(() => window.postMessage({ type: 'postbox:embed-height', height: 5 }, '*'));
    await page.waitForTimeout(200);
    expect(await page.locator('iframe[data-postbox-embed]').evaluate((f) => f.style.height)).toBe(
      before,
    );
  } finally {
    host.server.close();
  }
});

test('the admin Share & embed page: link, QR code, snippets and the live preview', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const name = `Shared readers ${Date.now()}`;
  const slug = await createPublicList('share', name);
  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, '/admin/');
  await page
    .getByRole('navigation', { name: 'Admin' })
    .getByRole('link', { name: 'Share & embed' })
    .click();
  await expect(page).toHaveURL(/\/admin\/share\/$/);
  await page.getByLabel('List to share').selectOption({ label: name });

  await expect(page.getByLabel('Link to the signup form')).toHaveValue(
    `${E2E_SITE_URL}/?list=${slug}`,
  );
  await expect(page.getByRole('img', { name: /QR code of/ })).toBeVisible();

  await page.getByLabel('Button text').fill('Count me in');
  await page.getByLabel('Theme').selectOption('dark');
  await expect(page.getByLabel('Iframe snippet')).toHaveValue(
    iframeSnippet(E2E_SITE_URL, { list: slug, buttonText: 'Count me in', theme: 'dark' }, name),
  );
  await expect(page.getByLabel(/Plain HTML form/)).toHaveValue(
    formSnippet(SUBSCRIBE_URL, { list: slug, buttonText: 'Count me in', theme: 'dark' }, name),
  );
  const preview = page.frameLocator(`iframe[title="Preview of the signup form for ${name}"]`);
  await expect(preview.getByRole('button', { name: 'Count me in' })).toBeVisible();
  await expect(preview.locator('main')).toHaveAttribute('data-theme', 'dark');

  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const iframeBlock = page.getByLabel('Iframe snippet').locator('..');
  await iframeBlock.getByRole('button', { name: 'Copy' }).click();
  await expect(iframeBlock.getByRole('status')).toHaveText('Copied.');
  await screenshotsAtBothWidths(page, 'share', 'admin');

  // The error state, then the empty one (the lists request is what fails or comes back empty).
  await page.route('**/rest/v1/lists?*', (route) => route.abort());
  await page.reload();
  await expect(page.getByText('The lists could not be loaded.')).toBeVisible();
  await screenshotsAtBothWidths(page, 'share-error', 'admin');
  await page.unroute('**/rest/v1/lists?*');
  await page.route('**/rest/v1/lists?*', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '[]' }),
  );
  await page.reload();
  await expect(page.getByText('No public lists to share.')).toBeVisible();
  await screenshotsAtBothWidths(page, 'share-empty', 'admin');
});
