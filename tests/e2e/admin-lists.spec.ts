// /admin/lists/ end to end: an admin creates (with slug checks in the browser and from the
// database), edits and deletes a list; a viewer reads only, and a direct write is refused.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { PUBLISHABLE_KEY } from '../../emulator/keys';
import { E2E_SUPABASE_URL } from './ports';
import { accessTokenIn, createTeamUser, signInWithPassword, snap } from './team';
import { expectNoAxeViolations, screenshotsAtBothWidths } from './page-checks';

const UMD_BUNDLE = fileURLToPath(
  new URL('../../node_modules/@supabase/supabase-js/dist/umd/supabase.js', import.meta.url),
);

test('an admin creates, edits and deletes a list', async ({ page }, testInfo) => {
  test.setTimeout(60_000);
  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, '/admin/lists/');
  await expect(page.getByRole('table', { name: 'Lists' })).toBeVisible();
  await expectNoAxeViolations(page, 'lists');

  const suffix = randomUUID().slice(0, 6);
  const name = `Release notes ${suffix}`;
  await page.getByRole('button', { name: 'New list' }).click();
  const dialog = page.getByRole('dialog', { name: 'New list' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Name')).toBeFocused();

  // The browser's check: nothing sent for a bad slug.
  await dialog.getByLabel('Name').fill(name);
  await expect(dialog.getByLabel('Slug')).toHaveValue(`release-notes-${suffix}`);
  await dialog.getByLabel('Slug').fill('release--notes');
  await dialog.getByRole('button', { name: 'Create list' }).click();
  await expect(dialog.getByLabel('Slug')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Slug')).toBeFocused();
  await expectNoAxeViolations(page, 'list editor with an error');
  await snap(page, testInfo, 'lists-editor-error-1280', { fullPage: false });

  // The database's check: a slug that is taken comes back at the field, typing kept.
  await dialog.getByLabel('Slug').fill('newsletter');
  await dialog.getByLabel('Description').fill('What changed this week.');
  await dialog.getByRole('button', { name: 'Create list' }).click();
  await expect(dialog.getByLabel('Slug')).toHaveAccessibleDescription(
    /That slug is taken. Choose another./,
  );
  await expect(dialog.getByLabel('Description')).toHaveValue('What changed this week.');

  const slug = `release-${suffix}`;
  await dialog.getByLabel('Slug').fill(slug);
  await dialog.getByLabel('Visibility').selectOption('private');
  await dialog.getByLabel('Opt-in').selectOption('single');
  await dialog.getByRole('button', { name: 'Create list' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByRole('status').filter({ hasText: `List “${name}” created.` }),
  ).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: slug });
  await expect(row).toContainText('Private');
  await expect(row).toContainText('Single opt-in');

  // Edit: the form opens with the saved values; the change shows in the table.
  await row.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${name}` });
  await expect(edit.getByLabel('Slug')).toHaveValue(slug);
  await expect(edit.getByLabel('Visibility')).toHaveValue('private');
  await edit.getByLabel('Name').fill(`${name} (weekly)`);
  await edit.getByLabel('Waitlist').check();
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  const edited = page.getByRole('row').filter({ hasText: slug });
  await expect(edited).toContainText(`${name} (weekly)`);
  await expect(edited).toContainText('Waitlist');
  await snap(page, testInfo, 'lists-admin-1280');
  // The page as an admin sees it (row actions, the notice), with no sideways scroll at either width.
  await screenshotsAtBothWidths(page, 'lists');

  // Escape closes a dialog and gives focus back to the button that opened it.
  const deleteButton = edited.getByRole('button', { name: `Delete ${name} (weekly)` });
  await deleteButton.click();
  const confirm = page.getByRole('dialog', { name: `Delete ${name} (weekly)?` });
  await expect(confirm).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(deleteButton).toBeFocused();

  await deleteButton.click();
  await expectNoAxeViolations(page, 'delete confirmation');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, testInfo, 'lists-delete-390', { fullPage: false });
  await confirm.getByRole('button', { name: 'Delete list' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: slug })).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'deleted' })).toBeVisible();
  await snap(page, testInfo, 'lists-admin-390');
});

test('a viewer sees the lists read-only, and a direct write is refused', async ({
  page,
}, testInfo) => {
  const viewer = await createTeamUser('viewer');
  await signInWithPassword(page, viewer, '/admin/lists/');
  await expect(page.getByRole('table', { name: 'Lists' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: /The newsletter/ })).toBeVisible();
  await expect(page.getByText('You can view lists.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New list' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Edit / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Delete / })).toHaveCount(0);

  // supabase-js in the page with the viewer's own session: RLS refuses insert, update and delete.
  expect(existsSync(UMD_BUNDLE)).toBe(true);
  const token = await accessTokenIn(page);
  await page.addScriptTag({ path: UMD_BUNDLE });
  const outcome = await page.evaluate(
    async ({ url, key, token }) => {
      const { createClient } = (
        window as unknown as { supabase: typeof import('@supabase/supabase-js') }
      ).supabase;
      const sb = createClient(url, key, {
        auth: { persistSession: false, autoRefreshToken: false },
        global: { headers: { Authorization: `Bearer ${token}` } },
      });
      const insert = await sb.from('lists').insert({ slug: 'viewer-was-here', name: 'Nope' });
      const update = await sb
        .from('lists')
        .update({ name: 'Hijacked' })
        .eq('slug', 'newsletter')
        .select();
      const remove = await sb.from('lists').delete().eq('slug', 'newsletter').select();
      return {
        insert: insert.error?.code ?? null,
        updated: update.data?.length ?? -1,
        deleted: remove.data?.length ?? -1,
      };
    },
    { url: E2E_SUPABASE_URL, key: PUBLISHABLE_KEY, token },
  );
  expect(outcome).toEqual({ insert: '42501', updated: 0, deleted: 0 });
  await page.reload();
  await expect(page.getByRole('rowheader', { name: /The newsletter/ })).toBeVisible();
  await expect(page.getByText('viewer-was-here')).toHaveCount(0);

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await expectNoAxeViolations(page, `lists viewer ${width} ${colorScheme}`);
      await snap(page, testInfo, `lists-viewer-${width}-${colorScheme}`);
    }
  }
});
