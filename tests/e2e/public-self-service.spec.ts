// Self-service journeys from the links at the bottom of an email: unsubscribe and undo, and the
// preferences page (name, list switches, download my data, delete my data).
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { sql } from './browser-client';
import {
  expectAccessible,
  linkIn,
  screenshots,
  signUp,
  uniqueEmail,
  waitForMail,
} from './public-kit';

async function subscriptionStatus(email: string, list: string): Promise<string | undefined> {
  const { rows } = await sql(
    `select sub.status from public.subscriptions sub
       join public.subscribers s on s.id = sub.subscriber_id
       join public.lists l on l.id = sub.list_id
      where s.email = $1 and l.slug = $2`,
    [email, list],
  );
  return rows[0]?.status;
}

test('footer unsubscribe link: unsubscribed, then Undo, then subscribed again', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('unsub');
  await page.goto('/');
  await signUp(page, email, ['The newsletter']);
  await page.goto(linkIn((await waitForMail(email))[0]!, '/confirm/'));
  await expect(page.getByRole('heading', { name: 'You are confirmed' })).toBeVisible();
  expect(await subscriptionStatus(email, 'newsletter')).toBe('confirmed');

  // The second mail: the newsletter's welcome, sent by its automation after the confirmation.
  const mail = (await waitForMail(email, 2)).at(-1)!;
  expect(mail.subject).toMatch(/^Welcome/);
  await page.goto(linkIn(mail, '/unsubscribe/'));
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeFocused();
  await expect(page.getByText(/will no longer get The newsletter\./)).toBeVisible();
  // The address is shown masked, never in full.
  await expect(page.getByText(email)).toHaveCount(0);
  expect(await subscriptionStatus(email, 'newsletter')).toBe('unsubscribed');
  await expectAccessible(page, 'unsubscribed');
  await screenshots(page, testInfo, 'unsubscribe');

  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('heading', { name: 'You are subscribed again' })).toBeFocused();
  await expect(page.getByText(/gets The newsletter again\./)).toBeVisible();
  expect(await subscriptionStatus(email, 'newsletter')).toBe('confirmed');
  await screenshots(page, testInfo, 'unsubscribe-undone');

  // And back: the page's own button unsubscribes again.
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  expect(await subscriptionStatus(email, 'newsletter')).toBe('unsubscribed');

  // The link to preferences opens the same subscriber's preferences.
  await page.getByRole('link', { name: 'Manage preferences' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your preferences' })).toBeVisible();
  await expect(page.getByText(`Emails go to ${email}.`)).toBeVisible();
  await expect(page.getByRole('switch', { name: /The newsletter/ })).not.toBeChecked();
});

test('unsubscribe page without the preferences token offers no way to preferences', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('unsub-bare');
  await page.goto('/');
  await signUp(page, email, ['The newsletter']);
  const mail = (await waitForMail(email))[0]!;
  // Only the one-click token, as the List-Unsubscribe header carries it.
  const link = new URL(linkIn(mail, '/unsubscribe/'));
  link.searchParams.delete('preferences');
  await page.goto(link.toString());
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeFocused();
  await expect(page.getByRole('link', { name: 'Manage preferences' })).toHaveCount(0);
  await expect(page.getByText(/use the Manage preferences link at the bottom/)).toBeVisible();
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('heading', { name: 'You are subscribed again' })).toBeFocused();
  await expect(page.getByRole('link', { name: 'Manage preferences' })).toHaveCount(0);
  await screenshots(page, testInfo, 'unsubscribe-without-preferences');
});

test('preferences: rename, switch a list, download my data, delete my data', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('prefs');
  await page.goto('/');
  await signUp(page, email, ['The newsletter']);
  const mail = (await waitForMail(email))[0]!;
  await page.goto(linkIn(mail, '/preferences/'));

  await expect(page.getByRole('heading', { level: 1, name: 'Your preferences' })).toBeVisible();
  await expect(page.getByText(`Emails go to ${email}.`)).toBeVisible();
  const name = page.getByLabel('Name (optional)');
  const newsletter = page.getByRole('switch', { name: /The newsletter/ });
  const updates = page.getByRole('switch', { name: /Product updates/ });
  await expect(newsletter).toBeChecked();
  await expect(updates).not.toBeChecked();
  const save = page.getByRole('button', { name: 'Save changes' });
  await expect(save).toBeDisabled(); // nothing changed yet
  await expectAccessible(page, 'preferences');
  await screenshots(page, testInfo, 'preferences');

  await name.fill('Ada Tester');
  await updates.check();
  await newsletter.uncheck();
  const request = page.waitForRequest(
    (r) => r.url().endsWith('/functions/v1/preferences') && r.method() === 'POST',
  );
  await save.click();
  // Only what changed is sent.
  expect((await request).postDataJSON()).toMatchObject({
    name: 'Ada Tester',
    lists: { 'product-updates': true, newsletter: false },
  });
  await expect(page.getByText('Your preferences are saved.')).toBeVisible();
  expect(await subscriptionStatus(email, 'product-updates')).toBe('confirmed');
  expect(await subscriptionStatus(email, 'newsletter')).toBe('unsubscribed');

  await page.reload();
  await expect(page.getByLabel('Name (optional)')).toHaveValue('Ada Tester');
  await expect(page.getByRole('switch', { name: /Product updates/ })).toBeChecked();
  await expect(page.getByRole('switch', { name: /The newsletter/ })).not.toBeChecked();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const exported = JSON.parse(await readFile((await file.path())!, 'utf8'));
  expect(JSON.stringify(exported)).toContain(email);
  expect(exported.subscriber).toMatchObject({ email, name: 'Ada Tester' });
  await expect(page.getByText('Your data was downloaded as a JSON file.')).toBeVisible();

  await page.getByRole('button', { name: 'Delete my data' }).click();
  await expect(page.getByRole('button', { name: 'Keep my data' })).toBeFocused();
  await expectAccessible(page, 'delete confirmation');
  await screenshots(page, testInfo, 'preferences-delete-confirm');
  await page.getByRole('button', { name: 'Yes, delete my data' }).click();
  await expect(page.getByRole('heading', { name: 'Your data is deleted' })).toBeFocused();
  const { rows } = await sql('select 1 from public.subscribers where email = $1', [email]);
  expect(rows).toEqual([]);
  await screenshots(page, testInfo, 'preferences-deleted');

  // The link now leads nowhere, and says so.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'This link is not valid' })).toBeVisible();
});

test('preferences: "Unsubscribe from all" keeps a name typed but not saved yet', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('prefs-all');
  await page.goto('/');
  await signUp(page, email, ['The newsletter', 'Product updates']);
  await page.goto(linkIn((await waitForMail(email))[0]!, '/preferences/'));
  const name = page.getByLabel('Name (optional)');
  const newsletter = page.getByRole('switch', { name: /The newsletter/ });
  const updates = page.getByRole('switch', { name: /Product updates/ });
  await expect(newsletter).toBeChecked();
  await expect(updates).toBeChecked();

  await name.fill('Grace Unsaved');
  await page.getByRole('button', { name: 'Unsubscribe from all' }).click();
  await expect(page.getByText('You are unsubscribed from every list.')).toBeVisible();
  expect(await subscriptionStatus(email, 'newsletter')).toBe('unsubscribed');
  expect(await subscriptionStatus(email, 'product-updates')).toBe('unsubscribed');
  // The lists follow the server; the name the action did not touch is still as typed, unsaved.
  await expect(newsletter).not.toBeChecked();
  await expect(updates).not.toBeChecked();
  await expect(name).toHaveValue('Grace Unsaved');
  const { rows } = await sql('select name from public.subscribers where email = $1', [email]);
  expect(rows[0]?.name ?? '').toBe('');
  await expectAccessible(page, 'preferences unsubscribed from all');
  await screenshots(page, testInfo, 'preferences-unsubscribed-all');

  const save = page.getByRole('button', { name: 'Save changes' });
  await expect(save).toBeEnabled();
  const request = page.waitForRequest(
    (r) => r.url().endsWith('/functions/v1/preferences') && r.method() === 'POST',
  );
  await save.click();
  const body = (await request).postDataJSON();
  expect(body).toMatchObject({ name: 'Grace Unsaved' });
  expect(body.lists).toBeUndefined();
  await expect(page.getByText('Your preferences are saved.')).toBeVisible();
  await expect(name).toHaveValue('Grace Unsaved');
  await expect(save).toBeDisabled();
});

test('preferences: a name of 60 emoji can be typed in full', async ({ page }, testInfo) => {
  const email = uniqueEmail('prefs-emoji');
  await page.goto('/');
  await signUp(page, email, ['The newsletter']);
  await page.goto(linkIn((await waitForMail(email))[0]!, '/preferences/'));
  const name = page.getByLabel('Name (optional)');
  await expect(name).toBeEditable();
  // 60 characters (SPEC §5 allows 100) but 120 UTF-16 units, which a `maxlength` of 100 would cut.
  await name.pressSequentially('😀'.repeat(60));
  await expect(name).toHaveValue('😀'.repeat(60));
  await screenshots(page, testInfo, 'preferences-emoji-name');
});

test('token pages explain a broken or missing link', async ({ page }, testInfo) => {
  for (const path of ['unsubscribe', 'preferences', 'confirm']) {
    await page.goto(`/${path}/?token=not-a-real-token`);
    await expect(page.getByRole('heading', { name: 'This link is not valid' })).toBeVisible();
    await expectAccessible(page, `${path} invalid`);
    await screenshots(page, testInfo, `${path}-invalid`);
    await page.goto(`/${path}/`);
    await expect(page.getByRole('heading', { name: 'This link is incomplete' })).toBeVisible();
  }
});
