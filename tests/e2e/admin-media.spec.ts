// /admin/media/ end to end: an admin uploads an image (progress, then it appears in the grid drawn
// through the Storage loader), copies its absolute public URL, and deletes it after confirming; a
// file the bucket would refuse is stopped in the browser; a viewer can only look and copy.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { expectNoAxeViolations, screenshotsAtBothWidths } from './page-checks';
import { E2E_SUPABASE_URL } from './ports';
import { createTeamUser, signInWithPassword } from './team';

/** A real PNG (a gradient-ish block of colour) so the renderer has something to resize. */
async function png(width: number, height: number): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: { r: 79, g: 70, b: 229 } },
  })
    .composite([
      {
        input: await sharp({
          create: { width: width / 2, height: height / 2, channels: 3, background: '#f79009' },
        })
          .png()
          .toBuffer(),
        top: height / 4,
        left: width / 4,
      },
    ])
    .png()
    .toBuffer();
}

test('an admin uploads an image, copies its URL and deletes it', async ({ page, context }) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, '/admin/media/');
  await expect(page.getByRole('heading', { name: 'Media', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Media' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('PNG, JPEG, WebP or GIF, at most 5 MB each.')).toBeVisible();

  // Refused in the browser: not an image, and too large.
  await page.getByLabel('Images to upload').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('hello'),
  });
  const refused = page.getByRole('alert').filter({ hasText: 'Choose' });
  await expect(refused).toHaveText('notes.txt: Choose a PNG, JPEG, WebP or GIF image.');
  await page.getByLabel('Images to upload').setInputFiles({
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
  });
  await expect(refused).toHaveText('huge.png: Choose an image of at most 5 MB.');

  const base = `hero-${randomUUID().slice(0, 6)}`;
  await page.getByLabel('Images to upload').setInputFiles({
    name: `${base}.png`,
    mimeType: 'image/png',
    buffer: await png(640, 400),
  });
  await expect(page.getByText('Image uploaded.')).toBeVisible();
  const card = page.getByRole('listitem').filter({ hasText: `${base}.png` });
  await expect(card).toBeVisible();
  await expect(card).toContainText(/\d+ (KB|B)/);
  // Drawn through next/image and the loader: a render URL of the same object, and it decodes.
  const img = card.getByRole('img', { name: `${base}.png` });
  await expect(img).toHaveAttribute(
    'src',
    /\/storage\/v1\/render\/image\/public\/media\/uploads\//,
  );
  await expect
    .poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth))
    .toBeGreaterThan(0);

  await card.getByRole('button', { name: `Copy URL of ${base}.png` }).click();
  await expect(card.getByRole('button', { name: `URL of ${base}.png copied` })).toContainText(
    'Copied',
  );
  const url = await page.evaluate(() => navigator.clipboard.readText());
  expect(url).toMatch(
    new RegExp(`^${E2E_SUPABASE_URL}/storage/v1/object/public/media/uploads/\\d+-${base}\\.png$`),
  );
  const fetched = await fetch(url);
  expect(fetched.status).toBe(200);
  expect(fetched.headers.get('content-type')).toBe('image/png');

  await expectNoAxeViolations(page, 'media with an image');
  await screenshotsAtBothWidths(page, 'media');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page, 'media in dark mode');
  await screenshotsAtBothWidths(page, 'media-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await card.getByRole('button', { name: `Delete ${base}.png` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete ${base}.png?` });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page, 'delete image dialog');
  await dialog.getByRole('button', { name: 'Delete image' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Image “${base}.png” deleted.`)).toBeVisible();
  await expect(card).toHaveCount(0);
  expect((await fetch(url)).ok).toBe(false);
});

test('a viewer sees the library without upload or delete', async ({ page }) => {
  const viewer = await createTeamUser('viewer');
  await signInWithPassword(page, viewer, '/admin/media/');
  await expect(
    page.getByText('You can view and copy images. Editors, admins and owners can upload them.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upload images' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: /^Images/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Delete / })).toHaveCount(0);
  await expectNoAxeViolations(page, 'media as a viewer');
});
