// The campaign editor's segments (issue 24) in Chromium: a draft to a list of three, narrowed to a
// segment of two; the picker's summary and the Send now confirmation name the narrowed count, and
// the send reaches exactly those two. Axe and screenshots at both widths.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { campaignRow, draftCampaign, NOT_THE_PREVIEW, waitForMail } from './campaign-editor-kit';
import { expectNoAxeViolations, screenshotsAtBothWidths } from './page-checks';
import { createTeamUser, insertRows, mailsFor, signInWithPassword } from './team';

test('a segment narrows a draft’s lists, and Send now names the narrowed count', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const run = randomUUID().slice(0, 8);
  const [list] = await insertRows<{ id: string }>('lists', [
    { slug: `audience-${run}`, name: `Audience ${run}`, visibility: 'private' },
  ]);
  const people = await insertRows<{ id: string; email: string }>(
    'subscribers',
    ['vip-a', 'vip-b', 'plain'].map((who) => ({ email: `${who}-${run}@example.com` })),
  );
  await insertRows(
    'subscriptions',
    people.map((p) => ({ subscriber_id: p.id, list_id: list!.id, status: 'confirmed' })),
  );
  const segmentName = `VIPs ${run}`;
  await insertRows('segments', [
    {
      name: segmentName,
      rules: { match: 'all', rules: [{ field: 'email', op: 'starts_with', value: 'vip-' }] },
    },
  ]);
  const subject = `Audience ${run}`;
  const id = await draftCampaign(subject, [list!.id]);

  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, `/admin/campaigns/edit/?id=${id}`);
  await expect(page.getByTestId('recipient-count')).toHaveText('3 recipients');

  const segments = page.getByRole('group', { name: 'Segments' });
  await segments
    .getByRole('combobox', { name: 'Only people in segment' })
    .selectOption({ label: segmentName });
  await expect(segments).toContainText(`In ${segmentName}`);
  await expect(segments).toContainText(`2 recipients with segments: only those in ${segmentName}.`);
  // The count above the segments is who a send goes to, so it narrows too.
  await expect(page.getByTestId('recipient-count')).toHaveText('2 recipients');
  // Live: one more VIP joins the list meanwhile, and the narrowed count follows without a reload.
  const [late] = await insertRows<{ id: string }>('subscribers', [
    { email: `vip-late-${run}@example.com` },
  ]);
  await insertRows('subscriptions', [
    { subscriber_id: late!.id, list_id: list!.id, status: 'confirmed' },
  ]);
  await expect(page.getByTestId('recipient-count')).toHaveText('3 recipients');
  await expect(segments).toContainText(`3 recipients with segments: only those in ${segmentName}.`);
  await expectNoAxeViolations(page, 'campaign audience', NOT_THE_PREVIEW);
  await screenshotsAtBothWidths(page, 'campaign-audience');

  await page.getByRole('button', { name: 'Send now' }).click();
  const confirm = page.getByRole('dialog', { name: 'Send this campaign now?' });
  await expect(confirm).toContainText('3 recipients');
  await confirm.getByRole('button', { name: 'Send to 3' }).click();

  await expect.poll(async () => (await campaignRow(id)).status, { timeout: 45_000 }).toBe('sent');
  expect((await campaignRow(id)).recipients).toBe(3);
  await waitForMail(`vip-a-${run}@example.com`, subject);
  await waitForMail(`vip-b-${run}@example.com`, subject);
  await waitForMail(`vip-late-${run}@example.com`, subject);
  expect(await mailsFor(`plain-${run}@example.com`)).toHaveLength(0);
});
