// /admin/subscribers/ and /admin/subscribers/view/ in Chromium against the e2e emulator: search,
// filters, keyset pages forwards and back, bulk blocklist and delete, a bulk action on every match
// of a filter, add one, view and edit one, what a viewer may not do, axe checks and screenshots at
// desktop and phone widths.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { createTeamUser, insertRows, mailsFor, signInWithPassword, uniqueEmail } from './team';
import { sql } from './browser-client';
import { expectNoAxeViolations, screenshotsAtBothWidths } from './page-checks';

/** 60 subscribers of this test only (their addresses share `tag`), one a minute apart. */
async function seedSubscribers(tag: string): Promise<Array<{ id: string; email: string }>> {
  const rows = Array.from({ length: 60 }, (_, i) => ({
    email: `s${String(i + 1).padStart(2, '0')}-${tag}@example.com`,
    name: `Person ${i + 1}`,
    attributes: i === 0 ? { city: 'Paris', plan: 'pro' } : {},
    created_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
  }));
  return insertRows<{ id: string; email: string }>('subscribers', rows);
}

const table = (page: Page) => page.getByRole('region', { name: /^Subscribers, page/ });
const summary = (page: Page) => page.getByRole('navigation', { name: 'Pages' });

test('an admin searches, filters, pages forwards and back, and blocklists in bulk', async ({
  page,
}) => {
  // Many steps, each a round trip to a shared, busy machine: three times the default timeout.
  test.slow();
  const tag = randomUUID().slice(0, 8);
  await seedSubscribers(tag);
  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, '/admin/subscribers/');
  await expect(page.getByRole('heading', { level: 1, name: 'Subscribers' })).toBeVisible();

  await page.getByLabel('Search').fill(tag);
  await expect(summary(page)).toContainText('1–50 of 60 matching subscribers');
  // Newest first: s60 leads the first page.
  await expect(table(page).getByRole('row').nth(1)).toContainText(`s60-${tag}@example.com`);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(summary(page)).toContainText('51–60 of 60 matching subscribers');
  await expect(table(page).getByRole('row')).toHaveCount(11);
  await expect(table(page)).toContainText(`s01-${tag}@example.com`);
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(summary(page)).toContainText('1–50 of 60 matching subscribers');
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();

  // Email order, and a search that narrows to one person by name.
  await page.getByLabel('Sort').selectOption('email-asc');
  await expect(table(page).getByRole('row').nth(1)).toContainText(`s01-${tag}@example.com`);
  await page.getByLabel('Search').fill(`s0_-${tag}`);
  await expect(page.getByText('No subscribers match these filters.')).toBeVisible();
  await expectNoAxeViolations(page, 'no matches');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByLabel('Search')).toHaveValue('');

  await page.getByLabel('Search').fill(tag);
  await expect(summary(page)).toContainText('1–50 of 60 matching subscribers');
  await page.getByLabel(`Select s01-${tag}@example.com`).check();
  await page.getByLabel(`Select s02-${tag}@example.com`).check();
  await expect(page.getByRole('group', { name: 'Bulk actions' })).toContainText(
    '2 subscribers selected',
  );
  await expectNoAxeViolations(page, 'selection');
  await screenshotsAtBothWidths(page, 'subscribers');
  await page.getByLabel('Action', { exact: true }).selectOption('blocklist');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page
    .getByRole('dialog', { name: 'Blocklist 2 subscribers?' })
    .getByRole('button', { name: 'Blocklist' })
    .click();
  await expect(
    page.getByRole('status').filter({ hasText: '2 subscribers blocklisted.' }),
  ).toBeVisible();

  await page.getByLabel('Status').selectOption('blocklisted');
  await expect(summary(page)).toContainText('1–2 of 2 matching subscribers');
  await expect(table(page).getByText('blocklisted')).toHaveCount(2);
  // Admins may not delete subscriber data: the control is not offered.
  await page.getByLabel(`Select s01-${tag}@example.com`).check();
  await expect(
    page.getByLabel('Action', { exact: true }).locator('option', { hasText: 'Delete' }),
  ).toHaveCount(0);
});

test('an admin adds every subscriber matching a filter to a list, counted before, in batches', async ({
  page,
}) => {
  // Many steps, each a round trip to a shared, busy machine: three times the default timeout.
  test.slow();
  const tag = randomUUID().slice(0, 8);
  await seedSubscribers(tag);
  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, '/admin/subscribers/');
  await page.getByLabel('Search').fill(tag);
  await expect(summary(page)).toContainText('1–50 of 60 matching subscribers');
  await page.getByLabel('Select all subscribers on this page').check();
  await page.getByRole('button', { name: 'Select all 60 matching subscribers' }).click();
  const bar = page.getByRole('group', { name: 'Bulk actions' });
  await expect(bar).toContainText('All 60 matching subscribers selected');
  await bar.getByLabel('Action', { exact: true }).selectOption('add');
  await expect(bar.getByRole('button', { name: 'Apply' })).toBeDisabled();
  await bar.getByLabel('List').selectOption({ label: 'The newsletter' });
  await bar.getByRole('button', { name: 'Apply' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add 60 subscribers to The newsletter?' });
  await expectNoAxeViolations(page, 'bulk confirmation');
  await screenshotsAtBothWidths(page, 'subscribers-bulk-all');
  await dialog.getByRole('button', { name: 'Add to a list' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: '60 subscribers added to The newsletter.' }),
  ).toBeVisible();
  // All 60, not only the 50 on the page: the list filter finds every one.
  await page.getByLabel('List', { exact: true }).first().selectOption({ label: 'The newsletter' });
  await expect(summary(page)).toContainText('of 60 matching subscribers');
  await page.goto(`/admin/subscribers/?q=s60-${tag}`);
  await expect(summary(page)).toContainText('1–1 of 1 matching subscribers');
  await page.getByRole('link', { name: `s60-${tag}@example.com` }).click();
  await expect(page.getByText('Subscribed to The newsletter').first()).toBeVisible();
});

test('an admin edits name, email, typed attributes and notes, and the history says who', async ({
  page,
}) => {
  // Many steps, each a round trip to a shared, busy machine: three times the default timeout.
  test.slow();
  const tag = randomUUID().slice(0, 8);
  const [first] = await seedSubscribers(tag);
  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, `/admin/subscribers/view/?id=${first!.id}`);
  await page.getByRole('button', { name: 'Edit' }).click();
  const form = page.locator('form');
  await form.getByLabel('Email').fill(`  Renamed-${tag}@Example.com `);
  await form.getByLabel(/^Name/).fill('Ada Lovelace');
  await form.getByRole('button', { name: 'Add attribute' }).click();
  await form.getByLabel('Attribute name').last().fill('seats');
  await form.getByLabel('Type').last().selectOption('number');
  await form.getByLabel('Value').last().fill('many');
  await form.getByLabel('Internal notes').fill('Met at the conference.');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form.getByText('Enter a number.')).toBeVisible();
  await form.getByLabel('Value').last().fill('12');
  // Raw JSON shows the same object; back to rows keeps it.
  await form.getByRole('button', { name: 'Edit as JSON' }).click();
  await expect(form.getByLabel('Attributes (JSON object)')).toHaveValue(/"seats": 12/);
  await expectNoAxeViolations(page, 'edit form');
  await screenshotsAtBothWidths(page, 'subscriber-edit');
  await form.getByRole('button', { name: 'Edit as rows' }).click();
  await form.getByRole('button', { name: 'Save changes' }).click();

  await expect(page.getByText('Saved. The change is in the history.')).toBeVisible();
  await expect(page.getByRole('heading', { name: `renamed-${tag}@example.com` })).toBeVisible();
  await expect(page.getByText('Met at the conference.').first()).toBeVisible();
  const change = page.getByRole('listitem').filter({ hasText: 'Details changed' }).first();
  await expect(change).toContainText(`by ${admin.email}`);
  await expect(change).toContainText('Name: Person 1 → Ada Lovelace');
  await expect(change).toContainText(`Email: s01-${tag}@example.com → renamed-${tag}@example.com`);
  await expect(change).toContainText('"seats":12');
});

test('an admin adds a subscriber, sees the duplicate refused at the field, and views them', async ({
  page,
}) => {
  const admin = await createTeamUser('admin');
  const email = uniqueEmail('added');
  await signInWithPassword(page, admin, '/admin/subscribers/');
  await page.getByRole('button', { name: 'Add subscriber' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add subscriber' });
  await dialog.getByLabel('Email address').fill('not-an-address');
  await dialog.getByRole('button', { name: 'Add subscriber' }).click();
  await expect(dialog.getByText('Enter a valid email address.')).toBeVisible();
  await dialog.getByLabel('Email address').fill(email.toUpperCase());
  // 60 emoji are 60 characters (SPEC §5 allows 100) but 120 UTF-16 units: typed in full.
  await dialog.getByLabel('Name').pressSequentially('😀'.repeat(60));
  await expect(dialog.getByLabel('Name')).toHaveValue('😀'.repeat(60));
  await dialog.getByLabel('Name').fill('Added Person');
  await dialog.getByLabel('The newsletter').check();
  await expectNoAxeViolations(page, 'add dialog');
  await dialog.getByRole('button', { name: 'Add subscriber' }).click();

  await expect(page).toHaveURL(/\/admin\/subscribers\/view\/\?id=/);
  await expect(page.getByRole('heading', { name: email })).toBeVisible();
  const newsletter = page
    .getByRole('list', { name: 'Lists' })
    .getByRole('listitem')
    .filter({ hasText: 'The newsletter' });
  await expect(newsletter.getByText('confirmed', { exact: true })).toBeVisible();
  await expect(page.getByText('Confirmed The newsletter')).toBeVisible();
  await expect(page.getByText('Subscribed to The newsletter').first()).toBeVisible();
  // An admin may export (SPEC §6), though not delete, which is the owner's.
  await expect(page.getByRole('button', { name: 'Export JSON' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);

  // Per-list change: unsubscribe, and the history says so.
  await page.getByRole('button', { name: 'Unsubscribe from The newsletter' }).click();
  await expect(newsletter.getByText('unsubscribed', { exact: true })).toBeVisible();
  await expect(page.getByText('Unsubscribed from The newsletter')).toBeVisible();
  await expectNoAxeViolations(page, 'subscriber view');
  await screenshotsAtBothWidths(page, 'subscriber-view');

  // The same address again is refused where it was typed.
  await page.goto('/admin/subscribers/');
  await page.getByRole('button', { name: 'Add subscriber' }).click();
  await dialog.getByLabel('Email address').fill(email);
  await dialog.getByRole('button', { name: 'Add subscriber' }).click();
  await expect(dialog.getByText('That address is already a subscriber.')).toBeVisible();
  await expect(dialog.getByLabel('Email address')).toHaveValue(email);
});

test('the owner deletes in bulk after confirming, and a subscriber page exports JSON', async ({
  page,
}) => {
  const tag = randomUUID().slice(0, 8);
  const seeded = await seedSubscribers(tag);
  const owner = await createTeamUser('owner');
  await signInWithPassword(page, owner, `/admin/subscribers/view/?id=${seeded[0]!.id}`);
  await expect(page.getByRole('heading', { name: seeded[0]!.email })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: 'Paris' })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^subscriber-s01-.*\.json$/);
  const exported = JSON.parse(readFileSync(await file.path(), 'utf8'));
  expect(exported.subscriber).toMatchObject({
    email: seeded[0]!.email,
    attributes: { city: 'Paris', plan: 'pro' },
  });

  await page.goto('/admin/subscribers/');
  await page.getByLabel('Search').fill(tag);
  await expect(summary(page)).toContainText('of 60 matching');
  await page.getByLabel('Select all subscribers on this page').check();
  await page.getByLabel('Action', { exact: true }).selectOption('delete');
  await page.getByRole('button', { name: 'Apply' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete 50 subscribers?' });
  await expectNoAxeViolations(page, 'delete confirmation');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: '50 subscribers deleted.' }),
  ).toBeVisible();
  await expect(summary(page)).toContainText('1–10 of 10 matching subscribers');

  await page.goto(`/admin/subscribers/view/?id=${seeded[59]!.id}`);
  await expect(page.getByText('Subscriber not found.')).toBeVisible();

  // One subscriber deleted from their own page, after confirming.
  await page.goto(`/admin/subscribers/view/?id=${seeded[1]!.id}`);
  await page.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: `Delete ${seeded[1]!.email}?` })
    .getByRole('button', { name: 'Delete subscriber' })
    .click();
  await expect(page).toHaveURL(/\/admin\/subscribers\/$/);
  await page.goto(`/admin/subscribers/view/?id=${seeded[1]!.id}`);
  await expect(page.getByText('Subscriber not found.')).toBeVisible();
  await page.goto('/admin/subscribers/view/?id=nonsense');
  await expect(page.getByText('Subscriber not found.')).toBeVisible();
});

test('a viewer reads subscribers but is offered no write controls', async ({ page }) => {
  const viewer = await createTeamUser('viewer');
  await signInWithPassword(page, viewer, '/admin/subscribers/');
  await page.getByLabel('Search').fill('ada@example.com');
  // Exact: the search matches inside addresses, and other tests' random addresses may end in "ada@example.com".
  const ada = page.getByRole('link', { name: 'ada@example.com', exact: true });
  await expect(ada).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add subscriber' })).toHaveCount(0);
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  await expectNoAxeViolations(page, 'viewer list');
  await ada.click();
  await expect(page.getByRole('heading', { name: 'ada@example.com', exact: true })).toBeVisible();
  // Exports are for admins and up (SPEC §6).
  for (const name of ['Export JSON', 'Blocklist', 'Delete', /^Unsubscribe from/, /^Subscribe to/]) {
    await expect(page.getByRole('button', { name })).toHaveCount(0);
  }
  await expectNoAxeViolations(page, 'viewer subscriber');
  await screenshotsAtBothWidths(page, 'subscriber-viewer');
  // The same page in the dark scheme: the CSS variables switch, contrast still holds.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page, 'subscriber-viewer (dark)');
  await page.screenshot({
    path: 'test-results/admin-subscriber-viewer-dark-1280.png',
    fullPage: true,
  });
});

test('an admin resends the confirmation to one pending subscriber, then to those pending for 2 days', async ({
  page,
}) => {
  test.slow();
  const tag = randomUUID().slice(0, 8);
  const [fresh, stale] = await insertRows<{ id: string; email: string }>('subscribers', [
    { email: `fresh-${tag}@example.com`, name: 'Fresh' },
    { email: `stale-${tag}@example.com`, name: 'Stale' },
  ]);
  const { rows: lists } = await sql(`select id from public.lists where slug = 'newsletter'`);
  const newsletter = lists[0] as { id: string };
  await insertRows('subscriptions', [
    // PostgREST needs the same keys in every object of a bulk insert.
    {
      subscriber_id: fresh!.id,
      list_id: newsletter.id,
      status: 'pending',
      created_at: new Date().toISOString(),
    },
    {
      subscriber_id: stale!.id,
      list_id: newsletter.id,
      status: 'pending',
      created_at: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    },
  ]);
  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, `/admin/subscribers/view/?id=${fresh!.id}`);
  await page.getByRole('button', { name: 'Resend confirmation' }).click();
  await expect(page.getByText('Confirmation email sent to 1 subscriber.')).toBeVisible();
  await expect
    .poll(async () => (await mailsFor(fresh!.email)).map((m) => m.subject))
    .toEqual([expect.stringMatching(/^Confirm your subscription to /)]);
  expect((await mailsFor(fresh!.email))[0]!.text).toMatch(/\/confirm\/\?token=/);
  await screenshotsAtBothWidths(page, 'subscriber-resend');

  await page.goto('/admin/subscribers/');
  await page.getByLabel('Search').fill(tag);
  // A new filter clears the selection: tick only once the search's own answer is shown.
  await expect(page.getByText('1–2 of 2 matching subscribers')).toBeVisible();
  await page.getByLabel(`Select ${fresh!.email}`).check();
  await page.getByLabel(`Select ${stale!.email}`).check();
  await page.getByRole('button', { name: 'Resend confirmation' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toHaveAccessibleName('Resend the confirmation email to 2 subscribers?');
  await dialog.getByLabel('Pending for at least (days)').fill('2');
  await expect(dialog).toHaveAccessibleName('Resend the confirmation email to 1 subscriber?');
  await expectNoAxeViolations(page, 'resend dialog');
  await screenshotsAtBothWidths(page, 'subscribers-resend-dialog');
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(dialog.getByText('Confirmation email sent to 1 subscriber.')).toBeVisible();
  await expect.poll(async () => (await mailsFor(stale!.email)).length).toBe(1);
  expect(await mailsFor(fresh!.email)).toHaveLength(1);
});
