// /admin/campaigns/edit/ in Chromium against the e2e emulator: an editor writes a new draft with
// an image uploaded and inserted from the picker (seen in the sandboxed preview), the recipient
// count follows the lists and a subscription made elsewhere, a test arrives in MailDev; an admin
// sends and the progress bar reaches 100 %; a viewer gets it read-only. Axe and screenshots too.
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { SERVICE_ROLE_KEY } from '../../emulator/keys';
import { sql } from './browser-client';
import { expectNoAxeViolations, screenshotsAtBothWidths } from './page-checks';
import { E2E_SUPABASE_URL } from './ports';
import { createTeamUser, insertRows, mailsFor, signInWithPassword, uniqueEmail } from './team';

interface Row {
  id: string;
}

/**
 * A fresh private list with `confirmed` confirmed subscribers (plus one pending who never counts);
 * private, so the public signup form other specs check keeps the seed's lists only.
 */
async function listWith(name: string, confirmed: number): Promise<{ id: string; name: string }> {
  const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${randomUUID().slice(0, 8)}`;
  const [list] = await insertRows<Row>('lists', [
    { slug, name: `${name} ${slug.slice(-8)}`, visibility: 'private' },
  ]);
  const people = await insertRows<Row>(
    'subscribers',
    Array.from({ length: confirmed + 1 }, () => ({ email: uniqueEmail('reader') })),
  );
  await insertRows(
    'subscriptions',
    people.map((p, i) => ({
      subscriber_id: p.id,
      list_id: list!.id,
      status: i < confirmed ? 'confirmed' : 'pending',
    })),
  );
  return { id: list!.id, name: `${name} ${slug.slice(-8)}` };
}

async function draftCampaign(subject: string, listIds: string[]): Promise<string> {
  const [campaign] = await insertRows<Row>('campaigns', [
    { name: `E2E ${subject}`, subject, body_md: `# ${subject}\n\nHello from the e2e run.` },
  ]);
  if (listIds.length) {
    await insertRows(
      'campaign_lists',
      listIds.map((list_id) => ({ campaign_id: campaign!.id, list_id })),
    );
  }
  return campaign!.id;
}

/** The campaign row as the service role reads it (the test's view, not the page's). */
async function campaignRow(id: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${E2E_SUPABASE_URL}/rest/v1/campaigns?id=eq.${id}`, {
    headers: { apikey: SERVICE_ROLE_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
  });
  return ((await response.json()) as Record<string, unknown>[])[0]!;
}

async function waitForMail(address: string, subject: string) {
  await expect
    .poll(async () => (await mailsFor(address)).map((m) => m.subject), { timeout: 20_000 })
    .toContain(subject);
}

/**
 * The preview is left out of axe runs: a sandboxed iframe without scripts cannot host axe (injecting
 * into it never answers). Its content is the sanitised email, checked by lib/campaign-render's tests.
 */
const NOT_THE_PREVIEW = { exclude: ['[data-testid="campaign-preview"]'] };

/** Full-page shots from the top (the sticky bar), plus the preview in view: Chromium leaves a
 * sandboxed iframe outside the viewport blank in a full-page capture. */
/** Cancel campaign, confirmed in its dialog; waits for the page to say Cancelled. */
async function cancelAfterConfirming(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Cancel campaign' }).click();
  await page
    .getByRole('dialog', { name: 'Cancel this campaign?' })
    .getByRole('button', { name: 'Cancel campaign' })
    .click();
  await expect(page.getByText('Cancelled', { exact: true })).toBeVisible();
}

async function shots(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshotsAtBothWidths(page, name);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId('campaign-preview').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/admin-${name}-preview-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0));
}

const count = (page: Page) => page.getByTestId('recipient-count');

test('an editor writes a draft with an image, sees the preview and the live count, sends a test', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const editor = await createTeamUser('editor');
  const news = await listWith('News', 2);
  const extra = await listWith('Extra', 1);
  // One reader on both lists: counted once.
  const [both] = await insertRows<Row>('subscribers', [{ email: uniqueEmail('both') }]);
  await insertRows('subscriptions', [
    { subscriber_id: both!.id, list_id: news.id, status: 'confirmed' },
    { subscriber_id: both!.id, list_id: extra.id, status: 'confirmed' },
  ]);

  await signInWithPassword(page, editor, '/admin/campaigns/edit/');
  // No id: a new draft is made and the address carries its id.
  await expect(page).toHaveURL(/\/admin\/campaigns\/edit\/\?id=[0-9a-f-]{36}/);
  await expect(page.getByRole('heading', { name: 'Details' })).toBeVisible();

  const subject = `Autumn notes ${randomUUID().slice(0, 6)}`;
  await page.getByLabel('Name', { exact: true }).fill('Autumn issue');
  await page.getByLabel('Subject').fill(subject);
  const body = page.getByLabel('Body (Markdown)');
  await body.fill('# Hello readers\n\nFirst paragraph.\n\n<script>alert(1)</script>');
  await body.press('Control+End');

  // Insert image: upload a new one; it is chosen, given alt text and inserted at the cursor.
  await page.getByRole('button', { name: 'Insert image' }).click();
  const dialog = page.getByRole('dialog', { name: 'Insert image' });
  const png = await sharp({
    create: { width: 64, height: 48, channels: 3, background: '#4f46e5' },
  })
    .png()
    .toBuffer();
  await dialog
    .getByLabel('Image file to upload')
    .setInputFiles({ name: 'autumn-leaf.png', mimeType: 'image/png', buffer: png });
  await expect(dialog.getByRole('button', { name: /autumn-leaf\.png/, pressed: true })).toBeVisible(
    {
      timeout: 15_000,
    },
  );
  await expect(dialog.locator('img').first()).toHaveJSProperty('complete', true);
  await dialog.getByLabel('Alt text').fill('A leaf');
  await dialog.getByRole('button', { name: 'Insert image' }).click();
  await expect(dialog).toBeHidden();
  await expect(body).toHaveValue(
    /!\[A leaf\]\(<http:\/\/127\.0\.0\.1:55321\/storage\/v1\/object\/public\/media\/uploads\/\d+-autumn-leaf\.png>\)/,
  );

  // The preview shows the image and the text; the script never reaches it.
  const preview = page.frameLocator('[data-testid="campaign-preview"]');
  await expect(preview.getByRole('heading', { name: 'Hello readers' })).toBeVisible();
  await expect(preview.locator('img[alt="A leaf"]')).toHaveAttribute(
    'src',
    /\/storage\/v1\/object\/public\/media\/uploads\/\d+-autumn-leaf\.png$/,
  );
  await expect
    .poll(() =>
      preview.locator('img[alt="A leaf"]').evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBe(64);
  await expect(preview.locator('script')).toHaveCount(0);
  expect(await page.getByTestId('campaign-preview').getAttribute('sandbox')).toBe('');

  // The live count: 3 on News (2 + both), 4 with Extra (both counted once).
  await expect(count(page)).toHaveText('No list chosen: 0 recipients');
  await page.getByRole('checkbox', { name: news.name }).check();
  await expect(count(page)).toHaveText('3 recipients');
  await page.getByRole('checkbox', { name: extra.name }).check();
  await expect(count(page)).toHaveText('4 recipients');
  // Someone confirms on Extra elsewhere: the count follows over Realtime.
  const [late] = await insertRows<Row>('subscribers', [{ email: uniqueEmail('late') }]);
  await insertRows('subscriptions', [
    { subscriber_id: late!.id, list_id: extra.id, status: 'confirmed' },
  ]);
  await expect(count(page)).toHaveText('5 recipients', { timeout: 10_000 });

  await expect(
    page.getByRole('status').filter({ hasText: /Saved at|All changes saved/ }),
  ).toBeVisible({
    timeout: 10_000,
  });
  // Editors test; sending belongs to admins.
  await expect(page.getByRole('button', { name: 'Send now' })).toHaveCount(0);
  await expect(page.getByLabel('Test recipients')).toHaveValue(editor.email);
  await page.getByRole('button', { name: 'Send test' }).click();
  await expect(page.getByText(`Test sent to ${editor.email}.`)).toBeVisible({ timeout: 15_000 });
  await waitForMail(editor.email, `[Test] ${subject}`);

  // A stranger's address is refused beside the field.
  await page.getByLabel('Test recipients').fill('nobody@example.com');
  await page.getByRole('button', { name: 'Send test' }).click();
  await expect(page.getByText('nobody@example.com is not a team member')).toBeVisible();

  // A bad slug is refused at the field; nothing typed is lost.
  await page.getByLabel('Show in the public archive').check();
  await page.getByLabel('Archive slug').fill('Not a slug!');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(/Use lower-case letters, digits and single hyphens/)).toBeVisible();
  await expect(page.getByLabel('Subject')).toHaveValue(subject);
  await page.getByLabel('Archive slug').fill('');
  await expect(page.getByRole('status').filter({ hasText: /Saved at/ })).toBeVisible({
    timeout: 10_000,
  });

  await expectNoAxeViolations(page, 'editor draft', NOT_THE_PREVIEW);
  await shots(page, 'campaign-editor-draft');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shots(page, 'campaign-editor-draft-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Reloaded, everything is there (it was saved, not just kept on screen).
  await page.reload();
  await expect(page.getByLabel('Subject')).toHaveValue(subject);
  await expect(page.getByRole('checkbox', { name: extra.name })).toBeChecked();
  await expect(page.getByLabel('Body (Markdown)')).toHaveValue(/!\[A leaf\]/);

  // Typed and left at once through the admin's navigation: saved on the way out, not dropped.
  const id = new URL(page.url()).searchParams.get('id')!;
  await page.getByLabel('Preheader').fill('Typed just before leaving');
  await page.getByRole('link', { name: 'Campaigns', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/campaigns\/$/);
  await expect
    .poll(async () => (await campaignRow(id)).preheader, { timeout: 10_000 })
    .toBe('Typed just before leaving');
});

test('an admin sends after confirming and the progress bar reaches 100 %', async ({ page }) => {
  test.setTimeout(120_000);
  const admin = await createTeamUser('admin');
  const list = await listWith('Send', 3);
  const subject = `Sent issue ${randomUUID().slice(0, 6)}`;
  const id = await draftCampaign(subject, [list.id]);

  await signInWithPassword(page, admin, `/admin/campaigns/edit/?id=${id}`);
  await expect(count(page)).toHaveText('3 recipients');
  await shots(page, 'campaign-editor-admin');

  // Scheduling in the past is refused at the field.
  await page.getByLabel('Send at').fill('2020-01-01T10:00');
  await page.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByText('Choose a time in the future.')).toBeVisible();

  await page.getByRole('button', { name: 'Send now' }).click();
  const confirm = page.getByRole('dialog', { name: 'Send this campaign now?' });
  await expect(confirm).toContainText('3 recipients');
  // That error belonged to Schedule; another action clears it.
  await expect(page.getByText('Choose a time in the future.')).toHaveCount(0);
  await confirm.getByRole('button', { name: 'Send to 3' }).click();

  const bar = page.getByRole('progressbar', { name: 'Sending progress' });
  await expect(bar).toHaveAttribute('aria-valuemax', '3');
  // The server's side first (process-queue, started by the send), so a stalled queue is named as
  // such; then the open page, which only Realtime updates of the row can have moved.
  await expect
    .poll(async () => (await campaignRow(id)).status, {
      message: 'the campaign should be sent by process-queue',
      timeout: 45_000,
    })
    .toBe('sent');
  await expect(bar).toHaveAttribute('aria-valuenow', '3', { timeout: 10_000 });
  await expect(page.getByTestId('send-progress-text')).toHaveText('3 of 3 sent');
  await expect(page.getByText('Sent', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('100 %')).toBeVisible();
  await expect(page.getByLabel('Subject')).toHaveAttribute('readonly', '');
  await expect(page.getByRole('link', { name: 'View report' })).toHaveAttribute(
    'href',
    `/admin/campaigns/report/?id=${id}`,
  );
  await expectNoAxeViolations(page, 'sent campaign', NOT_THE_PREVIEW);
  await shots(page, 'campaign-editor-sent');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shots(page, 'campaign-editor-sent-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Another draft: scheduled for tomorrow, then cancelled after confirming.
  const later = await draftCampaign(`Later issue ${randomUUID().slice(0, 6)}`, [list.id]);
  await page.goto(`/admin/campaigns/edit/?id=${later}`);
  const tomorrow = new Date(Date.now() + 24 * 3600 * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  await page
    .getByLabel('Send at')
    .fill(
      `${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}T09:30`,
    );
  await page.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByText('Scheduled', { exact: true })).toBeVisible();
  await expect(page.getByText(/Goes out on/)).toBeVisible();
  await cancelAfterConfirming(page);
});

test('a sending campaign is paused before it can be cancelled (SPEC §4)', async ({ page }) => {
  const admin = await createTeamUser('admin');
  const list = await listWith('Pause', 2);
  const id = await draftCampaign(`Paused issue ${randomUUID().slice(0, 6)}`, [list.id]);
  // The scheduler stays off for this test, so the campaign is still sending when the page opens
  // (nothing runs the queue: the send is started in SQL, not through send-campaign).
  const job = (active: boolean) =>
    sql(
      `select cron.alter_job(jobid, active := $1) from cron.job where jobname = 'postbox-process-queue'`,
      [active],
    );
  await job(false);
  try {
    await sql(`select public.start_campaign_send($1, '<p>Paused issue</p>')`, [id]);
    await signInWithPassword(page, admin, `/admin/campaigns/edit/?id=${id}`);
    await expect(page.getByText('Sending', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel campaign' })).toHaveCount(0);
    await expect(page.getByText('To cancel the campaign, pause it first.')).toBeVisible();
    await expect(
      page.frameLocator('[data-testid="campaign-preview"]').getByRole('heading', { level: 1 }),
    ).toHaveText(/Paused issue/);
    await expectNoAxeViolations(page, 'sending campaign', NOT_THE_PREVIEW);
    await shots(page, 'campaign-editor-sending');
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect(page.getByText('Paused', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();
    await cancelAfterConfirming(page);
    expect((await campaignRow(id)).status).toBe('cancelled');
  } finally {
    await job(true);
  }
});

test('a viewer sees a draft read-only; a missing campaign says so', async ({ page }) => {
  const viewer = await createTeamUser('viewer');
  const list = await listWith('Viewer', 1);
  const id = await draftCampaign(`Viewer draft ${randomUUID().slice(0, 6)}`, [list.id]);

  await signInWithPassword(page, viewer, `/admin/campaigns/edit/?id=${id}`);
  await expect(page.getByText('You can read this draft.')).toBeVisible();
  await expect(page.getByLabel('Subject')).toHaveAttribute('readonly', '');
  await expect(page.getByLabel('Body (Markdown)')).toHaveAttribute('readonly', '');
  await expect(page.getByRole('checkbox', { name: list.name })).toBeDisabled();
  await expect(count(page)).toHaveText('1 recipient');
  for (const name of ['Insert image', 'Send test', 'Send now', 'Schedule', 'Save']) {
    await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await expect(
    page
      .frameLocator('[data-testid="campaign-preview"]')
      .getByRole('heading', { name: /Viewer draft/ }),
  ).toBeVisible();
  await expectNoAxeViolations(page, 'viewer draft', NOT_THE_PREVIEW);
  await shots(page, 'campaign-editor-viewer');

  await page.goto(`/admin/campaigns/edit/?id=${randomUUID()}`);
  await expect(page.getByText('Campaign not found.')).toBeVisible();
  await page.goto('/admin/campaigns/edit/');
  await expect(page.getByText('Only editors can create campaigns.')).toBeVisible();
});

test('the preview renderer loads after the form; if its download fails, Retry brings it', async ({
  page,
}) => {
  const editor = await createTeamUser('editor');
  const id = await draftCampaign(`Preview retry ${randomUUID().slice(0, 6)}`, []);
  // The renderer's chunk is the one that carries the preview page's empty-body text.
  let refuse = true;
  let refused = 0;
  await page.route('**/_next/static/chunks/**', async (route) => {
    const response = await route.fetch();
    const text = await response.text();
    if (refuse && text.includes('Write Markdown on the left')) {
      refused += 1;
      return route.abort();
    }
    return route.fulfill({ response, body: text });
  });

  await signInWithPassword(page, editor, `/admin/campaigns/edit/?id=${id}`);
  await expect(page.getByLabel('Subject')).toBeEditable();
  await expect(page.getByText('The preview could not be loaded.')).toBeVisible();
  expect(refused).toBeGreaterThan(0);
  await expectNoAxeViolations(page, 'preview failed');
  await page.getByText('The preview could not be loaded.').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/admin-campaign-editor-preview-failed.png' });
  refuse = false;
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(
    page
      .frameLocator('[data-testid="campaign-preview"]')
      .getByRole('heading', { name: /Preview retry/ }),
  ).toBeVisible();
  await expect(page.getByText('The preview could not be loaded.')).toHaveCount(0);
});

test('by keyboard, closing the Send now dialog puts focus back on Send now', async ({ page }) => {
  const admin = await createTeamUser('admin');
  const list = await listWith('Keyboard', 1);
  const id = await draftCampaign(`Keyboard issue ${randomUUID().slice(0, 6)}`, [list.id]);
  await signInWithPassword(page, admin, `/admin/campaigns/edit/?id=${id}`);
  await expect(count(page)).toHaveText('1 recipient');

  const sendNow = page.getByRole('button', { name: 'Send now' });
  const confirm = page.getByRole('dialog', { name: 'Send this campaign now?' });
  // Send now saves the draft first (the button is busy meanwhile), then asks.
  await sendNow.focus();
  await page.keyboard.press('Enter');
  await expect(confirm).toBeVisible();
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(sendNow).toBeFocused();

  // The same with the dialog's Cancel button, by keyboard.
  await page.keyboard.press('Enter');
  await expect(confirm).toBeVisible();
  await page.keyboard.press('Enter'); // on Cancel
  await expect(confirm).toBeHidden();
  await expect(sendNow).toBeFocused();

  // Without a list, Send now says so once: at the list field, not again in the recipient count.
  await page.getByRole('checkbox', { name: list.name }).uncheck();
  await sendNow.click();
  await expect(page.getByText('Choose at least one list.')).toHaveCount(1);
  await expect(count(page)).toHaveText('No list chosen: 0 recipients');
});
