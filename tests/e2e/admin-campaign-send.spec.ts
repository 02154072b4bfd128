// Sending from /admin/campaigns/edit/ in Chromium against the e2e emulator: an admin confirms Send
// now and the progress bar reaches 100 %; a sending campaign must be paused before it can be
// cancelled (SPEC §4); the Send now dialog hands keyboard focus back. Axe and screenshots too.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { sql } from './browser-client';
import { expectNoAxeViolations } from './page-checks';
import { createTeamUser, signInWithPassword } from './team';
import {
  campaignRow,
  cancelAfterConfirming,
  draftCampaign,
  listWith,
  NOT_THE_PREVIEW,
  recipientCount,
  shots,
} from './campaign-editor-kit';

test('an admin sends after confirming and the progress bar reaches 100 %', async ({ page }) => {
  test.setTimeout(120_000);
  const admin = await createTeamUser('admin');
  const list = await listWith('Send', 3);
  const subject = `Sent issue ${randomUUID().slice(0, 6)}`;
  const id = await draftCampaign(subject, [list.id]);

  await signInWithPassword(page, admin, `/admin/campaigns/edit/?id=${id}`);
  await expect(recipientCount(page)).toHaveText('3 recipients');
  await shots(page, 'campaign-editor-admin');

  // Scheduling in the past is refused at the field.
  await page.getByLabel('Send at').fill('2020-01-01T10:00');
  await page.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByText('Choose a time in the future.')).toBeVisible();

  await page.getByRole('button', { name: 'Send now' }).click();
  const confirm = page.getByRole('dialog', { name: 'Send this campaign now?' });
  await expect(confirm).toContainText('3 recipients');
  // That error belonged to Schedule; another action clears it.
  await expect(page.getByText('Choose a time in the future.')).toHaveCount(0);
  await confirm.getByRole('button', { name: 'Send to 3' }).click();

  const bar = page.getByRole('progressbar', { name: 'Sending progress' });
  await expect(bar).toHaveAttribute('aria-valuemax', '3');
  // The server's side first (process-queue, started by the send), so a stalled queue is named as
  // such; then the open page, which only Realtime updates of the row can have moved.
  await expect
    .poll(async () => (await campaignRow(id)).status, {
      message: 'the campaign should be sent by process-queue',
      timeout: 45_000,
    })
    .toBe('sent');
  await expect(bar).toHaveAttribute('aria-valuenow', '3', { timeout: 10_000 });
  await expect(page.getByTestId('send-progress-text')).toHaveText('3 of 3 sent');
  await expect(page.getByText('Sent', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('100 %')).toBeVisible();
  await expect(page.getByLabel('Subject')).toHaveAttribute('readonly', '');
  await expect(page.getByRole('link', { name: 'View report' })).toHaveAttribute(
    'href',
    `/admin/campaigns/report/?id=${id}`,
  );
  await expectNoAxeViolations(page, 'sent campaign', NOT_THE_PREVIEW);
  await shots(page, 'campaign-editor-sent');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shots(page, 'campaign-editor-sent-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Another draft: scheduled for tomorrow, then cancelled after confirming.
  const later = await draftCampaign(`Later issue ${randomUUID().slice(0, 6)}`, [list.id]);
  await page.goto(`/admin/campaigns/edit/?id=${later}`);
  const tomorrow = new Date(Date.now() + 24 * 3600 * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  await page
    .getByLabel('Send at')
    .fill(
      `${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}T09:30`,
    );
  await page.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByText('Scheduled', { exact: true })).toBeVisible();
  await expect(page.getByText(/Goes out on/)).toBeVisible();
  await cancelAfterConfirming(page);
});

test('a sending campaign is paused before it can be cancelled (SPEC §4)', async ({ page }) => {
  const admin = await createTeamUser('admin');
  const list = await listWith('Pause', 2);
  const id = await draftCampaign(`Paused issue ${randomUUID().slice(0, 6)}`, [list.id]);
  // The scheduler stays off for this test, so the campaign is still sending when the page opens
  // (nothing runs the queue: the send is started in SQL, not through send-campaign).
  const job = (active: boolean) =>
    sql(
      `select cron.alter_job(jobid, active := $1) from cron.job where jobname = 'postbox-process-queue'`,
      [active],
    );
  await job(false);
  try {
    await sql(`select public.start_campaign_send($1, '<p>Paused issue</p>')`, [id]);
    await signInWithPassword(page, admin, `/admin/campaigns/edit/?id=${id}`);
    await expect(page.getByText('Sending', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel campaign' })).toHaveCount(0);
    await expect(page.getByText('To cancel the campaign, pause it first.')).toBeVisible();
    await expect(
      page.frameLocator('[data-testid="campaign-preview"]').getByRole('heading', { level: 1 }),
    ).toHaveText(/Paused issue/);
    await expectNoAxeViolations(page, 'sending campaign', NOT_THE_PREVIEW);
    await shots(page, 'campaign-editor-sending');
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect(page.getByText('Paused', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();
    await cancelAfterConfirming(page);
    expect((await campaignRow(id)).status).toBe('cancelled');
  } finally {
    await job(true);
  }
});

test('by keyboard, closing the Send now dialog puts focus back on Send now', async ({ page }) => {
  const admin = await createTeamUser('admin');
  const list = await listWith('Keyboard', 1);
  const id = await draftCampaign(`Keyboard issue ${randomUUID().slice(0, 6)}`, [list.id]);
  await signInWithPassword(page, admin, `/admin/campaigns/edit/?id=${id}`);
  await expect(recipientCount(page)).toHaveText('1 recipient');

  const sendNow = page.getByRole('button', { name: 'Send now' });
  const confirm = page.getByRole('dialog', { name: 'Send this campaign now?' });
  // Send now saves the draft first (the button is busy meanwhile), then asks.
  await sendNow.focus();
  await page.keyboard.press('Enter');
  await expect(confirm).toBeVisible();
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(sendNow).toBeFocused();

  // The same with the dialog's Cancel button, by keyboard.
  await page.keyboard.press('Enter');
  await expect(confirm).toBeVisible();
  await page.keyboard.press('Enter'); // on Cancel
  await expect(confirm).toBeHidden();
  await expect(sendNow).toBeFocused();

  // Without a list, Send now says so once: at the list field, not again in the recipient count.
  await page.getByRole('checkbox', { name: list.name }).uncheck();
  await sendNow.click();
  await expect(page.getByText('Choose at least one list.')).toHaveCount(1);
  await expect(recipientCount(page)).toHaveText('No list chosen: 0 recipients');
});
