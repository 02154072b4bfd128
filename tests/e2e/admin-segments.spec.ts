// Tags and segments in Chromium against the e2e emulator (issue 24): tag one subscriber from their
// page with the keyboard, tag every match of a search in bulk, build a segment in the rule editor
// with its live count and sample, save it, open it as the subscribers filter; axe checks and
// screenshots at desktop and phone widths.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { createTeamUser, insertRows, signInWithPassword } from './team';
import { expectNoAxeViolations, screenshotsAtBothWidths } from './page-checks';

test('an admin tags subscribers and builds a segment with a live count', async ({ page }) => {
  test.slow();
  const run = randomUUID().slice(0, 8);
  const rows = await insertRows<{ id: string; email: string }>(
    'subscribers',
    [1, 2, 3].map((i) => ({ email: `seg${i}-${run}@example.com`, name: `Seg ${i}` })),
  );
  const admin = await createTeamUser('admin');
  const first = rows.find((r) => r.email.startsWith('seg1-'))!;
  await signInWithPassword(page, admin, `/admin/subscribers/view/?id=${first.id}`);

  // One subscriber, by keyboard: type the tag, Enter; the chip has its own remove button.
  const card = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Tags' }) });
  await expect(card.getByText('No tags yet.')).toBeVisible();
  await card.getByLabel('Add a tag').fill(`vip-${run}`);
  await card.getByLabel('Add a tag').press('Enter');
  await expect(card.getByRole('list', { name: 'Tags' })).toContainText(`vip-${run}`);
  await expect(card.getByRole('button', { name: `Remove tag vip-${run}` })).toBeVisible();
  await expectNoAxeViolations(page, 'subscriber tags');
  await screenshotsAtBothWidths(page, 'subscriber-tags');

  // Every match of a search, in bulk: all three get "wave-…".
  await page.goto(`/admin/subscribers/?q=${run}`);
  await page.getByLabel('Select all subscribers on this page').check();
  const bar = page.getByRole('group', { name: 'Bulk actions' });
  await bar.getByLabel('Action', { exact: true }).selectOption('tag');
  await bar.getByLabel('Tag').fill(`wave-${run}`);
  await bar.getByRole('button', { name: 'Apply' }).click();
  await page
    .getByRole('dialog', { name: `Tag 3 subscribers “wave-${run}”?` })
    .getByRole('button', { name: 'Add a tag' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: '3 subscribers tagged' })).toBeVisible();

  // A segment: has the vip tag, email contains the run → 1; the count follows the edits.
  await page.goto('/admin/subscribers/segments/edit/');
  await page.getByLabel('Name').fill(`VIPs ${run}`);
  await page.getByRole('button', { name: 'Add condition' }).click();
  await page.getByLabel('Tag', { exact: true }).selectOption({ label: `vip-${run}` });
  await page.getByRole('button', { name: 'Add condition' }).click();
  await page.getByLabel('Condition 2', { exact: true }).selectOption('email');
  await page.getByLabel('Text').fill(run);
  const matching = page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Matching now' }) });
  await expect(matching.getByText('1 subscriber', { exact: true })).toBeVisible();
  await expect(matching.getByRole('link', { name: first.email })).toBeVisible();
  await page.getByLabel('Match', { exact: true }).selectOption('any');
  await expect(matching.getByText(/^\d[\d,]* subscribers/)).toBeVisible();
  await page.getByLabel('Match', { exact: true }).selectOption('all');
  await expect(matching.getByText('1 subscriber', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Save segment' }).click();
  await expect(page.getByText('Segment saved.')).toBeVisible();
  await expect(page).toHaveURL(/segments\/edit\/\?id=/);
  await expectNoAxeViolations(page, 'segment editor');
  await screenshotsAtBothWidths(page, 'segment-editor');

  // The segment as the subscribers filter.
  await matching.getByRole('link', { name: 'Open in Subscribers' }).click();
  await expect(page.getByLabel('Segment')).toHaveValue(/[0-9a-f-]{36}/);
  await expect(page.getByRole('navigation', { name: 'Pages' })).toContainText(
    '1–1 of 1 matching subscribers',
  );
  await page.goto('/admin/subscribers/segments/');
  await expect(page.getByRole('link', { name: `VIPs ${run}` })).toBeVisible();
  await screenshotsAtBothWidths(page, 'segments-list');
});
