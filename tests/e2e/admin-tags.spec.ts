// The tags screen (/admin/subscribers/tags/, issue 24) in Chromium against the e2e emulator: an
// admin reaches it from Subscribers, creates a tag (a bad and a taken name told at the field),
// renames one by keyboard and sees the new name on a subscriber's page and in their history, is
// refused deleting a tag a segment and an automation use (both named), deletes an unused one (the
// count of subscribers who lose it; their history keeps it, since deleted); a viewer only reads, and
// a failed read offers Retry. Axe checks and screenshots at desktop and phone widths.
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { createTeamUser, insertRows, signInWithPassword } from './team';
import { expectNoAxeViolations, screenshotsAtBothWidths } from './page-checks';

async function arrange(run: string) {
  const people = await insertRows<{ id: string; email: string }>(
    'subscribers',
    [1, 2].map((i) => ({ email: `tags${i}-${run}@example.com`, name: `Tagged ${i}` })),
  );
  const [wave, keep] = await insertRows<{ id: string; name: string }>('tags', [
    { name: `wave-${run}` },
    { name: `keep-${run}` },
  ]);
  await insertRows(
    'subscriber_tags',
    people.flatMap((p) => [
      { subscriber_id: p.id, tag_id: wave!.id },
      { subscriber_id: p.id, tag_id: keep!.id },
    ]),
  );
  await insertRows('segments', [
    {
      name: `Keepers ${run}`,
      rules: { match: 'all', rules: [{ field: 'tag', op: 'has', value: keep!.id }] },
    },
  ]);
  await insertRows('automations', [
    { name: `On keep ${run}`, trigger_kind: 'tag', trigger_tag_id: keep!.id },
  ]);
  return { people, wave: wave!, keep: keep! };
}

function row(page: Page, name: string) {
  return page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
}

test('an admin creates, renames and deletes tags; a tag in use is refused with its users named', async ({
  page,
}) => {
  test.slow();
  const run = randomUUID().slice(0, 8);
  const { people, keep } = await arrange(run);
  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, '/admin/subscribers/');

  await page.getByRole('link', { name: 'Tags', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/subscribers\/tags\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Tags' })).toBeVisible();
  await page.getByLabel('Find a tag').fill(run);
  await expect(
    row(page, `wave-${run}`).getByRole('link', { name: `2 subscribers tagged wave-${run}` }),
  ).toBeVisible();
  await expect(row(page, `keep-${run}`)).toBeVisible();

  // Create: a comma is refused at the field, then a taken name (ignoring case), then a new one.
  await page.getByRole('button', { name: 'New tag' }).click();
  const naming = page.getByRole('dialog', { name: 'New tag' });
  await naming.getByLabel('Name').fill(`fresh, ${run}`);
  await naming.getByLabel('Name').press('Enter');
  await expect(naming.getByText('A tag cannot contain a comma or a semicolon.')).toBeVisible();
  await naming.getByLabel('Name').fill(`WAVE-${run}`);
  await naming.getByRole('button', { name: 'Create tag' }).click();
  await expect(naming.getByText('Another tag already has that name.')).toBeVisible();
  await expect(naming.getByLabel('Name')).toHaveValue(`WAVE-${run}`);
  await naming.getByLabel('Name').fill(`fresh-${run}`);
  await naming.getByLabel('Name').press('Enter');
  await expect(naming).toBeHidden();
  await expect(
    page.getByRole('status').filter({ hasText: `Tag “fresh-${run}” created.` }),
  ).toBeVisible();
  await expect(row(page, `fresh-${run}`)).toBeVisible();
  await expect(row(page, `fresh-${run}`).getByRole('link')).toHaveCount(0);
  await expectNoAxeViolations(page, 'tags list');
  await screenshotsAtBothWidths(page, 'tags');

  // Rename by keyboard; the subscribers keep the tag under its new name.
  await page.getByRole('button', { name: `Rename wave-${run}` }).focus();
  await page.keyboard.press('Enter');
  const renaming = page.getByRole('dialog', { name: `Rename “wave-${run}”` });
  await expect(renaming.getByLabel('Name')).toBeFocused();
  await expect(renaming.getByLabel('Name')).toHaveValue(`wave-${run}`);
  // The old name starts selected: typing replaces it.
  await page.keyboard.type(`surf-${run}`);
  await page.keyboard.press('Enter');
  await expect(renaming).toBeHidden();
  await expect(
    page.getByRole('status').filter({ hasText: `Tag “wave-${run}” renamed to “surf-${run}”.` }),
  ).toBeVisible();
  await page.getByLabel('Find a tag').fill(run);
  await expect(
    row(page, `surf-${run}`).getByRole('link', { name: `2 subscribers tagged surf-${run}` }),
  ).toBeVisible();

  // Deleting a tag a segment and an automation name is refused, and they are named.
  await page.getByRole('button', { name: `Delete keep-${run}` }).click();
  const inUse = page.getByRole('dialog', { name: `“keep-${run}” is in use` });
  await expect(inUse.getByRole('link', { name: `Keepers ${run}` })).toBeVisible();
  await expect(inUse.getByRole('link', { name: `On keep ${run}` })).toHaveAttribute(
    'href',
    /\/admin\/automations\/edit\/\?id=/,
  );
  await expect(inUse).toContainText('starts when someone gets it');
  await expect(inUse.getByRole('button', { name: 'Delete tag' })).toHaveCount(0);
  await expectNoAxeViolations(page, 'tag in use');
  await screenshotsAtBothWidths(page, 'tag-in-use');
  await page.keyboard.press('Escape');
  await expect(inUse).toBeHidden();
  await expect(row(page, `keep-${run}`)).toBeVisible();

  // An unused tag: the dialog counts who loses it; deleting it says so.
  await page.getByRole('button', { name: `Delete surf-${run}` }).click();
  const confirm = page.getByRole('dialog', { name: `Delete the tag “surf-${run}”?` });
  await expect(confirm).toContainText(
    '2 subscribers lose this tag. No segment or automation uses it.',
  );
  await expect(
    confirm.getByRole('link', { name: 'remove the tag from them in bulk' }),
  ).toHaveAttribute('href', /\/admin\/subscribers\/\?tag=/);
  await expectNoAxeViolations(page, 'delete tag');
  await screenshotsAtBothWidths(page, 'tag-delete');
  await confirm.getByRole('button', { name: 'Delete tag' }).click();
  await expect(confirm).toBeHidden();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: `Tag “surf-${run}” deleted; 2 subscribers no longer have it.` }),
  ).toBeVisible();
  await expect(row(page, `surf-${run}`)).toHaveCount(0);

  // The subscriber's page: the kept tag, and the renamed tag's whole story in the history.
  await row(page, `keep-${run}`).getByRole('link').click();
  await expect(page.getByLabel('Tag', { exact: true })).toHaveValue(keep.id);
  await expect(page.getByRole('navigation', { name: 'Pages' })).toContainText(
    '1–2 of 2 matching subscribers',
  );
  await page.goto(`/admin/subscribers/view/?id=${people[0]!.id}`);
  const history = page.getByRole('list', { name: 'Events, newest first' });
  // Deleting wrote nothing: the history names the tag as it was recorded, since deleted.
  await expect(history).toContainText(`Tagged “wave-${run}” (since deleted)`);
  await expect(history).not.toContainText('removed');
  const card = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Tags' }) });
  await expect(card.getByRole('list', { name: 'Tags' })).toHaveText(`keep-${run}`);
  await screenshotsAtBothWidths(page, 'subscriber-tag-history');
});

test('a viewer sees the tags and their counts but no way to change them', async ({ page }) => {
  const run = randomUUID().slice(0, 8);
  await arrange(run);
  const viewer = await createTeamUser('viewer');
  // A failed read says so (the catalogue's words, not the server's) and Retry reads again.
  let fail = true;
  await page.route('**/rest/v1/rpc/tag_counts*', (route) =>
    fail
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: '{"code":"XX000","message":"The database is down."}',
        })
      : route.fallback(),
  );
  await signInWithPassword(page, viewer, '/admin/subscribers/tags/');
  const alert = page.getByRole('alert').filter({ hasText: 'Tags could not be loaded.' });
  await expect(alert).toContainText('Something went wrong. Nothing was changed.');
  fail = false;
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText('You can see tags and who has them.')).toBeVisible();
  await page.getByLabel('Find a tag').fill(run);
  await expect(
    row(page, `keep-${run}`).getByRole('link', { name: `2 subscribers tagged keep-${run}` }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'New tag' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Rename|Delete) / })).toHaveCount(0);
  await page.getByLabel('Find a tag').fill(`${run}-nothing`);
  await expect(page.getByText(`No tag matches “${run}-nothing”.`)).toBeVisible();
});
