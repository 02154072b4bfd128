// /admin/campaigns/edit/ in Chromium against the e2e emulator: an editor writes a new draft with
// an image uploaded and inserted from the picker (seen in the sandboxed preview), the recipient
// count follows the lists and a subscription made elsewhere, a test arrives in MailDev; a viewer
// gets it read-only; the preview renderer recovers from a failed download. Axe and screenshots
// too. Sending from the editor: admin-campaign-send.spec.ts.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { expectNoAxeViolations } from './page-checks';
import { createTeamUser, insertRows, signInWithPassword, uniqueEmail } from './team';
import {
  campaignRow,
  draftCampaign,
  listWith,
  NOT_THE_PREVIEW,
  recipientCount,
  type Row,
  shots,
  waitForMail,
} from './campaign-editor-kit';

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
  // No id: a new campaign, not stored until its first save; then the address carries its id.
  await expect(page.getByRole('heading', { name: 'Details' })).toBeVisible();
  await expect(page.getByText('Not saved yet')).toBeVisible();
  expect(new URL(page.url()).searchParams.get('id')).toBeNull();

  const subject = `Autumn notes ${randomUUID().slice(0, 6)}`;
  await page.getByLabel('Name', { exact: true }).fill('Autumn issue');
  await expect(page).toHaveURL(/\/admin\/campaigns\/edit\/\?id=[0-9a-f-]{36}/, {
    timeout: 10_000,
  });
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
  await expect(recipientCount(page)).toHaveText('No list chosen: 0 recipients');
  await page.getByRole('checkbox', { name: news.name }).check();
  await expect(recipientCount(page)).toHaveText('3 recipients');
  await page.getByRole('checkbox', { name: extra.name }).check();
  await expect(recipientCount(page)).toHaveText('4 recipients');
  // Someone confirms on Extra elsewhere: the count follows over Realtime.
  const [late] = await insertRows<Row>('subscribers', [{ email: uniqueEmail('late') }]);
  await insertRows('subscriptions', [
    { subscriber_id: late!.id, list_id: extra.id, status: 'confirmed' },
  ]);
  await expect(recipientCount(page)).toHaveText('5 recipients', { timeout: 10_000 });

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

test('a viewer sees a draft read-only; a missing campaign says so', async ({ page }) => {
  const viewer = await createTeamUser('viewer');
  const list = await listWith('Viewer', 1);
  const id = await draftCampaign(`Viewer draft ${randomUUID().slice(0, 6)}`, [list.id]);

  await signInWithPassword(page, viewer, `/admin/campaigns/edit/?id=${id}`);
  await expect(page.getByText('You can read this draft.')).toBeVisible();
  await expect(page.getByLabel('Subject')).toHaveAttribute('readonly', '');
  await expect(page.getByLabel('Body (Markdown)')).toHaveAttribute('readonly', '');
  await expect(page.getByRole('checkbox', { name: list.name })).toBeDisabled();
  await expect(recipientCount(page)).toHaveText('1 recipient');
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
  // The renderer's chunk is the one that carries the merge tags' placeholder word
  // (lib/email-render/liquid-source.ts), which only the lazily loaded renderer uses.
  let refuse = true;
  let refused = 0;
  await page.route('**/_next/static/chunks/**', async (route) => {
    const response = await route.fetch();
    const text = await response.text();
    if (refuse && text.includes('pbmergetag')) {
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
