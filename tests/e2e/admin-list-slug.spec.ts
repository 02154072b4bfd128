// Changing a list's slug in /admin/lists/ (issue 23): the editor warns that links and embeds with
// the old slug break and saves only once that is confirmed; the old embed link then finds no list.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { sql } from './browser-client';
import { createTeamUser, insertRows, signInWithPassword } from './team';
import { expectNoAxeViolations, screenshotsAtBothWidths } from './page-checks';

const madeLists: string[] = [];
test.afterEach(async () => {
  await sql('delete from public.lists where id = any($1::uuid[])', [madeLists.splice(0)]);
});

test('a slug change is confirmed first; the old slug stops working', async ({ page }) => {
  test.setTimeout(90_000);
  const tag = randomUUID().slice(0, 8);
  const name = `Slugged ${tag}`;
  const oldSlug = `old-${tag}`;
  const newSlug = `new-${tag}`;
  const [list] = await insertRows<{ id: string }>('lists', [
    { slug: oldSlug, name, visibility: 'public', optin: 'single' },
  ]);
  // A public list would show on the home page of later specs: gone when this test ends.
  madeLists.push(list!.id);
  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, '/admin/lists/');
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${name}` });
  await expect(dialog.getByRole('alert')).toHaveCount(0);

  await dialog.getByLabel('Slug', { exact: true }).fill(newSlug);
  const warning = dialog.getByRole('alert').filter({ hasText: 'stop working' });
  await expect(warning).toContainText(`/embed/?list=${oldSlug}`);
  await expect(warning).toContainText('stop working');
  await expectNoAxeViolations(page, 'slug change warning');
  await screenshotsAtBothWidths(page, 'list-slug-change');

  // Not saved until confirmed.
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(
    dialog.getByText('Confirm that links with the old slug will stop working'),
  ).toBeVisible();
  await expect(dialog).toBeVisible();
  // Typing the old slug back needs no confirmation.
  await dialog.getByLabel('Slug', { exact: true }).fill(oldSlug);
  await expect(dialog.getByRole('alert')).toHaveCount(0);

  await dialog.getByLabel('Slug', { exact: true }).fill(newSlug);
  await dialog.getByLabel(`Change the slug anyway; links with “${oldSlug}” break`).check();
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: newSlug })).toHaveCount(1);

  // What the warning said: the old embed link no longer offers the list.
  await page.goto(`/embed/?list=${newSlug}`);
  await expect(page.getByText(name)).toBeVisible();
  await page.goto(`/embed/?list=${oldSlug}`);
  await expect(page.getByRole('heading', { name: 'This list does not exist' })).toBeVisible();
});
