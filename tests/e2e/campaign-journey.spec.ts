// The campaign journey end to end (issue 5): the owner writes a campaign with an uploaded image,
// sends a test, sends it to a list of its own and watches the progress bar reach 100 %; the
// subscribers' messages arrive in MailDev; one reader unsubscribes in one click (RFC 8058 POST to
// the message's List-Unsubscribe URL); the report counts it; the issue is in the public archive.
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { E2E_MAIL_WEB_PORT, E2E_SITE_URL } from './ports';
import { createTeamUser, insertRows, signInWithPassword, uniqueEmail } from './team';

interface CaughtMessage {
  id: string;
  subject: string;
  text: string;
  html?: string;
  to: { address: string }[];
}

const MAIL_API = `http://127.0.0.1:${E2E_MAIL_WEB_PORT}/api/email`;

/** The messages MailDev holds for `address`, with their headers. */
async function messagesFor(address: string): Promise<CaughtMessage[]> {
  const response = await fetch(MAIL_API);
  if (!response.ok) throw new Error(`MailDev answered ${response.status}`);
  const all = (await response.json()) as CaughtMessage[];
  return all.filter((m) => m.to.some((t) => t.address.toLowerCase() === address));
}

async function waitForMessage(address: string, subject: string): Promise<CaughtMessage> {
  let found: CaughtMessage | undefined;
  await expect
    .poll(
      async () => {
        found = (await messagesFor(address)).find((m) => m.subject === subject);
        return Boolean(found);
      },
      { message: `"${subject}" for ${address}`, timeout: 45_000 },
    )
    .toBe(true);
  return found!;
}

/** The message's headers as sent, by lower-case name (MailDev's JSON keeps only a few). */
async function headersOf(message: CaughtMessage): Promise<Record<string, string>> {
  const source = await (await fetch(`${MAIL_API}/${message.id}/source`)).text();
  const block = source.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      headers[line.slice(0, colon).trim().toLowerCase()] ??= line.slice(colon + 1).trim();
    }
  }
  return headers;
}

/** The figure (first dd) of one tile of the report's Delivery section. */
function figure(page: Page, label: string) {
  return page
    .getByLabel('Delivery', { exact: true })
    .getByText(label, { exact: true })
    .locator('..')
    .locator('dd')
    .first();
}

test('the owner writes, tests and sends a campaign; a reader unsubscribes in one click; the report and the archive show it', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const tag = randomUUID().slice(0, 6);

  // A private list of the journey's own (no other spec's data changes its counts): 3 readers.
  const [list] = await insertRows<{ id: string; name: string }>('lists', [
    {
      slug: `journey-${tag}`,
      name: `Journey readers ${tag}`,
      visibility: 'private',
      optin: 'single',
    },
  ]);
  const readers = [uniqueEmail('reader-a'), uniqueEmail('reader-b'), uniqueEmail('reader-c')];
  const people = await insertRows<{ id: string; email: string }>(
    'subscribers',
    readers.map((email) => ({ email })),
  );
  await insertRows(
    'subscriptions',
    people.map((p) => ({ subscriber_id: p.id, list_id: list!.id, status: 'confirmed' })),
  );

  // The owner starts a new campaign from the campaigns page.
  const owner = await createTeamUser('owner');
  await signInWithPassword(page, owner, '/admin/campaigns/');
  await page.getByRole('button', { name: 'New campaign' }).click();
  await page
    .getByRole('dialog', { name: 'New campaign' })
    .getByRole('link', { name: /Blank campaign/ })
    .click();

  const subject = `Field notes ${tag}`;
  await page.getByLabel('Name', { exact: true }).fill(`Journey ${tag}`);
  // The first save creates the draft; the address then names it.
  await expect(page).toHaveURL(/\/admin\/campaigns\/edit\/\?id=[0-9a-f-]{36}/, {
    timeout: 10_000,
  });
  const campaignId = new URL(page.url()).searchParams.get('id')!;
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Preheader').fill('What we learned building the archive.');
  const body = page.getByLabel('Body (Markdown)');
  await body.fill(`# Field notes\n\nThis week we **shipped the archive**.\n\n`);
  await body.press('Control+End');

  // An image, uploaded through the picker and inserted at the cursor.
  await page.getByRole('button', { name: 'Insert image' }).click();
  const picker = page.getByRole('dialog', { name: 'Insert image' });
  const png = await sharp({
    create: { width: 800, height: 300, channels: 3, background: '#0e7490' },
  })
    .png()
    .toBuffer();
  await picker
    .getByLabel('Image file to upload')
    .setInputFiles({ name: `journey-${tag}.png`, mimeType: 'image/png', buffer: png });
  await expect(
    picker.getByRole('button', { name: new RegExp(`journey-${tag}\\.png`), pressed: true }),
  ).toBeVisible({ timeout: 15_000 });
  await picker.getByLabel('Alt text').fill('A teal banner');
  await picker.getByRole('button', { name: 'Insert image' }).click();
  await expect(picker).toBeHidden();
  await expect(body).toHaveValue(
    /!\[A teal banner\]\(<http:\/\/127\.0\.0\.1:55321\/storage\/v1\/object\/public\/media\/.+>\)/,
  );
  await body.press('Control+End');
  await body.pressSequentially('\n\nThanks for reading.');

  await page.getByRole('checkbox', { name: 'Show in the public archive' }).check();
  await page.getByRole('checkbox', { name: list!.name }).check();
  await expect(page.getByTestId('recipient-count')).toHaveText('3 recipients');

  // A test to the owner's own address.
  await expect(page.getByLabel('Test recipients')).toHaveValue(owner.email);
  await page.getByRole('button', { name: 'Send test' }).click();
  await expect(page.getByText(`Test sent to ${owner.email}.`)).toBeVisible({ timeout: 20_000 });
  const testMessage = await waitForMessage(owner.email, `[Test] ${subject}`);
  expect(testMessage.text).toContain('shipped the archive');

  // Send to the list and watch the progress bar reach 100 %.
  await page.getByRole('button', { name: 'Send now' }).click();
  const confirm = page.getByRole('dialog', { name: 'Send this campaign now?' });
  await expect(confirm).toContainText('3 recipients');
  await confirm.getByRole('button', { name: 'Send to 3' }).click();
  const bar = page.getByRole('progressbar', { name: 'Sending progress' });
  await expect(bar).toHaveAttribute('aria-valuemax', '3');
  await expect(bar).toHaveAttribute('aria-valuenow', '3', { timeout: 60_000 });
  await expect(page.getByTestId('send-progress-text')).toHaveText('3 of 3 sent');
  await expect(page.getByText('100 %')).toBeVisible();

  // Every reader's message arrives, with the one-click unsubscribe headers.
  const messages = [];
  for (const address of readers) messages.push(await waitForMessage(address, subject));
  for (const message of messages) {
    expect((await headersOf(message))['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(message.html).toContain('A teal banner');
  }

  // One reader unsubscribes the way a mail client does it: POST to the https (here http) URL.
  const listUnsubscribe = (await headersOf(messages[0]!))['list-unsubscribe'] ?? '';
  const url = /<(https?:\/\/[^>]+)>/.exec(listUnsubscribe)?.[1];
  expect(url, `List-Unsubscribe: ${listUnsubscribe}`).toBeTruthy();
  const oneClick = await fetch(url!, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  expect(oneClick.status).toBe(200);

  // The report counts the unsubscribe.
  await page.getByRole('link', { name: 'View report' }).click();
  await expect(page).toHaveURL(`/admin/campaigns/report/?id=${campaignId}`);
  await expect(figure(page, 'Recipients')).toHaveText('3');
  await expect(figure(page, 'Sent')).toHaveText('3');
  await expect
    .poll(
      async () => {
        await page.reload();
        return figure(page, 'Unsubscribed').innerText();
      },
      { timeout: 20_000 },
    )
    .toBe('1');

  // A visitor finds the issue in the public archive and reads it, image included.
  const visitor = await browser.newPage({ baseURL: E2E_SITE_URL });
  await visitor.goto('/archive/');
  await visitor.getByRole('link', { name: subject }).click();
  await expect(visitor.getByRole('heading', { level: 1, name: subject })).toBeVisible();
  await expect(visitor.getByText('What we learned building the archive.')).toBeVisible();
  const article = visitor.getByRole('article');
  await expect(article.getByText('shipped the archive')).toBeVisible();
  const image = article.getByRole('img', { name: 'A teal banner' });
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(800);
  await visitor.screenshot({ path: 'test-results/journey-archive-issue.png', fullPage: true });
  await visitor.close();
});
