// The campaign lifecycle in Chromium (issue 23), one admin's journey: New campaign from a seeded
// template (nothing stored until the first save), schedule, unschedule back to a draft, edit,
// duplicate. Screenshots of the templates picker and the editor at 1280 and 390 px.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { SERVICE_ROLE_KEY } from '../../emulator/keys';
import { expectNoAxeViolations, screenshotsAtBothWidths } from './page-checks';
import { E2E_SUPABASE_URL } from './ports';
import { createTeamUser, signInWithPassword } from './team';
import { campaignRow, listWith, NOT_THE_PREVIEW, shots } from './campaign-editor-kit';

async function service<T>(path: string): Promise<T> {
  const response = await fetch(`${E2E_SUPABASE_URL}/rest/v1/${path}`, {
    headers: { apikey: SERVICE_ROLE_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
  });
  return (await response.json()) as T;
}

/** `YYYY-MM-DDTHH:mm` in the browser's zone (the e2e browser runs in the test's). */
function localInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(
    date.getHours(),
  )}:${pad(date.getMinutes())}`;
}

test('from a template to a draft at first save, scheduled, unscheduled, edited and duplicated', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const tag = randomUUID().slice(0, 6);
  const admin = await createTeamUser('admin');
  const list = await listWith('Lifecycle', 2);
  const mine = () => service<{ id: string }[]>(`campaigns?created_by=eq.${admin.id}&select=id`);

  await signInWithPassword(page, admin, '/admin/campaigns/');
  await page.getByRole('button', { name: 'New campaign' }).click();
  const picker = page.getByRole('dialog', { name: 'New campaign' });
  await expect(picker.getByRole('link', { name: /Product update/ })).toBeVisible();
  await expectNoAxeViolations(page, 'templates picker');
  await screenshotsAtBothWidths(page, 'campaign-templates-picker');
  await page.setViewportSize({ width: 1280, height: 900 });
  await picker.getByRole('link', { name: /Product update/ }).click();

  // The template's content, not yet a campaign.
  await expect(page).toHaveURL(/\/admin\/campaigns\/edit\/\?template=/);
  await expect(page.getByText('Not saved yet')).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Product update');
  await expect(page.getByLabel('Body (Markdown)')).toHaveValue(/## What is new/);
  await expect(
    page.frameLocator('[data-testid="campaign-preview"]').getByRole('heading', {
      name: 'What is new',
    }),
  ).toBeVisible();
  await shots(page, 'campaign-editor-from-template');
  expect(await mine()).toEqual([]);

  // The first save creates it.
  const subject = `What's new in Lifecycle ${tag}`;
  await page.getByLabel('Subject').fill(subject);
  await page.getByRole('checkbox', { name: list.name }).check();
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page).toHaveURL(/\/admin\/campaigns\/edit\/\?id=[0-9a-f-]{36}/);
  const id = new URL(page.url()).searchParams.get('id')!;
  expect((await mine()).map((c) => c.id)).toEqual([id]);
  await expect(page.getByRole('status').filter({ hasText: /Saved at/ })).toBeVisible();

  // Schedule for tomorrow: locked, with Unschedule offered.
  await page.getByLabel('Send at').fill(localInput(new Date(Date.now() + 86_400_000)));
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByText('Scheduled', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Subject')).toHaveAttribute('readonly', '');
  await expect(page.getByText(/Unschedule it to make it a draft again/)).toBeVisible();
  expect((await campaignRow(id)).status).toBe('scheduled');

  // Unschedule: a draft again, editable; the edit is saved.
  await page.getByRole('button', { name: 'Unschedule' }).click();
  await expect(page.getByText(/Back to draft/)).toBeVisible();
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  expect(await campaignRow(id)).toMatchObject({ status: 'draft', scheduled_at: null });
  await page.getByLabel('Subject').fill(`${subject}, revised`);
  await expect
    .poll(async () => (await campaignRow(id)).subject, { timeout: 10_000 })
    .toBe(`${subject}, revised`);
  await expectNoAxeViolations(page, 'editor after unschedule', NOT_THE_PREVIEW);
  await shots(page, 'campaign-editor-unscheduled');

  // Duplicate: a new draft with "(copy)", the same list and body, opened at once.
  await page.getByRole('button', { name: 'Duplicate', exact: true }).click();
  await expect(page).not.toHaveURL(new RegExp(id));
  await expect(page.getByLabel('Subject')).toHaveValue(`${subject}, revised (copy)`);
  const copyId = new URL(page.url()).searchParams.get('id')!;
  expect(await campaignRow(copyId)).toMatchObject({
    status: 'draft',
    name: 'Product update (copy)',
    body_md: (await campaignRow(id)).body_md,
    scheduled_at: null,
  });
  await expect(page.getByRole('checkbox', { name: list.name })).toBeChecked();
});
