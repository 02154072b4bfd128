// /admin/settings/ in Chromium against the e2e emulator: the owner renames the site (seen on /),
// gets errors at the field, uploads a logo that next/image shows resized by Storage through the
// custom loader (bytes decoded), and a viewer gets a read-only page. Axe and screenshots too.
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { SERVICE_ROLE_KEY } from '../../emulator/keys';
import { E2E_SUPABASE_URL } from './ports';
import { createTeamUser, signInWithPassword } from './team';
import { expectNoAxeViolations, screenshotsAtBothWidths } from './page-checks';

const SETTINGS_URL = `${E2E_SUPABASE_URL}/rest/v1/settings?id=eq.true`;
const SERVICE = { apikey: SERVICE_ROLE_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` };

/** The settings row as the service role sees it (the test's own view, not the page's). */
async function readSettings(): Promise<Record<string, unknown>> {
  const response = await fetch(SETTINGS_URL, { headers: SERVICE });
  return ((await response.json()) as Record<string, unknown>[])[0]!;
}

async function writeSettings(row: Record<string, unknown>): Promise<void> {
  const { id: _id, updated_at: _at, ...fields } = row;
  const response = await fetch(SETTINGS_URL, {
    method: 'PATCH',
    headers: { ...SERVICE, 'Content-Type': 'application/json' },
    body: JSON.stringify(fields),
  });
  expect(response.ok).toBe(true);
}

/** Width of a PNG, JPEG or WebP image, read from its header. */
function imageWidth(bytes: Buffer): { format: string; width: number } {
  if (bytes.subarray(1, 4).toString('latin1') === 'PNG') {
    return { format: 'png', width: bytes.readUInt32BE(16) };
  }
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF') {
    const chunk = bytes.subarray(12, 16).toString('latin1');
    if (chunk === 'VP8 ') return { format: 'webp', width: bytes.readUInt16LE(26) & 0x3fff };
    if (chunk === 'VP8L') return { format: 'webp', width: 1 + (bytes.readUInt16LE(21) & 0x3fff) };
    if (chunk === 'VP8X') return { format: 'webp', width: 1 + bytes.readUIntLE(24, 3) };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    for (let at = 2; at < bytes.length - 9;) {
      const marker = bytes[at + 1]!;
      if (marker >= 0xc0 && marker <= 0xc2)
        return { format: 'jpeg', width: bytes.readUInt16BE(at + 7) };
      at += 2 + bytes.readUInt16BE(at + 2);
    }
  }
  throw new Error(`not a PNG, JPEG or WebP image: ${bytes.subarray(0, 16).toString('hex')}`);
}

let original: Record<string, unknown>;
test.beforeAll(async () => {
  original = await readSettings();
});
// Every test starts from the row as it was, and other specs read the site name and logo on /.
test.afterEach(async () => {
  await writeSettings(original);
});

test('the owner renames the site, sees it on /, and gets errors at the field', async ({ page }) => {
  const owner = await createTeamUser('owner');
  await signInWithPassword(page, owner, '/admin/settings/');
  const name = `Letters ${Math.random().toString(36).slice(2, 6)}`;
  await expect(page.getByLabel('Site name')).toHaveValue(String(original.site_name));

  await page.getByLabel('Sender email').fill('not an address');
  await page.getByLabel('Site name').fill('');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByLabel('Sender email')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Enter a valid email address.')).toBeVisible();
  await expect(page.getByText('Enter a site name.')).toBeVisible();
  // Focus moves to the first invalid field (Site name comes before Sender email).
  await expect(page.getByLabel('Site name')).toBeFocused();
  await expectNoAxeViolations(page, 'field errors');
  expect((await readSettings()).site_name).toBe(original.site_name);

  await page.getByLabel('Site name').fill(name);
  await page.getByLabel('Sender email').fill('Letters@Example.com');
  await page.getByLabel('Track opens').check();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();
  await expect(page.getByLabel('Sender email')).toHaveValue('letters@example.com');
  expect(await readSettings()).toMatchObject({
    site_name: name,
    sender_email: 'letters@example.com',
    track_opens: true,
  });
  await screenshotsAtBothWidths(page, 'settings-owner');

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
});

test('the owner uploads a logo; next/image shows it resized by Storage', async ({ page }) => {
  const owner = await createTeamUser('owner');
  await signInWithPassword(page, owner, '/admin/settings/');
  const source = await sharp({
    create: { width: 1200, height: 600, channels: 3, background: { r: 79, g: 70, b: 229 } },
  })
    .png()
    .toBuffer();

  // Checked before upload: wrong type and too big never reach Storage.
  const file = page.getByLabel('Logo image file');
  await file.setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('hi'),
  });
  await expect(page.getByText('Choose a PNG, JPEG, WebP or GIF image.')).toBeVisible();
  await file.setInputFiles({
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
  });
  await expect(page.getByText('Choose an image of at most 5 MB.')).toBeVisible();

  const rendered = page.waitForResponse(
    (r) =>
      r.url().includes('/storage/v1/render/image/public/media/logo/') &&
      r.request().resourceType() === 'image',
  );
  await file.setInputFiles({ name: 'Brand Logo.png', mimeType: 'image/png', buffer: source });
  const img = page.getByRole('img', { name: 'Current site logo' });
  await expect(img).toBeVisible();
  const path = (await readSettings()).logo_path as string;
  expect(path).toMatch(/^logo\/\d{13}-brand-logo\.png$/);

  const src = await img.evaluate((el: HTMLImageElement) => el.currentSrc);
  const url = new URL(src);
  expect(`${url.origin}${url.pathname}`).toBe(
    `${E2E_SUPABASE_URL}/storage/v1/render/image/public/media/${path}`,
  );
  expect(url.searchParams.get('quality')).toBe('75');
  const width = Number(url.searchParams.get('width'));
  expect([128, 256, 384]).toContain(width);

  const response = await rendered;
  expect(response.url()).toBe(src);
  expect(response.status()).toBe(200);
  const decoded = imageWidth(await response.body());
  expect(decoded.width).toBe(width);
  expect(decoded.width).toBeLessThan(1200);
  // The browser decoded what arrived at that size too.
  expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(width);
  await expectNoAxeViolations(page, 'logo');
  await screenshotsAtBothWidths(page, 'settings-logo');

  await page.getByRole('button', { name: 'Remove logo' }).click();
  await expect(page.getByText('No logo')).toBeVisible();
  expect((await readSettings()).logo_path).toBeNull();
});

test('a viewer reads the settings and the team, read-only', async ({ page }) => {
  const viewer = await createTeamUser('viewer');
  await signInWithPassword(page, viewer, '/admin/settings/');
  await expect(page.getByText('Only the owner can change these settings.')).toBeVisible();
  await expect(page.getByLabel('Site name')).toHaveAttribute('readonly', '');
  await expect(page.getByLabel('Track clicks')).toBeDisabled();
  for (const name of ['Save settings', 'Upload logo', 'Send invite', /^Remove/]) {
    await expect(page.getByRole('button', { name })).toHaveCount(0);
  }
  await expect(page.getByRole('combobox', { name: /^Role of/ })).toHaveCount(0);
  await expect(page.getByRole('row', { name: new RegExp(viewer.email) })).toContainText('Viewer');
  await expectNoAxeViolations(page, 'viewer settings');
  await screenshotsAtBothWidths(page, 'settings-viewer');
  // The same page in the dark scheme: the CSS variables switch, contrast still holds.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page, 'settings-viewer (dark)');
  await page.screenshot({
    path: 'test-results/admin-settings-viewer-dark-1280.png',
    fullPage: true,
  });
});
