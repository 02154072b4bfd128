// /admin/campaigns/ and the report end to end: campaigns by status with a status change arriving
// live, a new draft opening the editor, delete by role; a report with failed deliveries that an
// admin retries through send-campaign (they go out to MailDev), the progress bar of a paused send,
// and opens/clicks only while tracking is on.
import { randomUUID } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { SERVICE_ROLE_KEY } from '../../emulator/keys';
import { expectNoAxeViolations, screenshotsAtBothWidths } from './page-checks';
import { E2E_SUPABASE_URL } from './ports';
import { createTeamUser, mailsFor, signInWithPassword } from './team';

/** A REST call as the service role (fixtures only; the page under test uses the member's token). */
async function rest<T = Record<string, unknown>[]>(
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${E2E_SUPABASE_URL}/rest/v1/${path}`, {
    method,
    headers: {
      apikey: SERVICE_ROLE_KEY,
      Authorization: `Bearer ${SERVICE_ROLE_KEY}`,
      'Content-Type': 'application/json',
      Prefer: 'return=representation',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

async function newDraft(name: string, listIds: string[] = []): Promise<string> {
  const [row] = await rest<{ id: string }[]>('POST', 'campaigns', {
    name,
    subject: `${name} subject`,
    body_md: `# ${name}\n\nHello from the report test.`,
  });
  const id = row!.id;
  await rest('PATCH', `campaigns?id=eq.${id}`, {
    body_html: `<h1>${name}</h1><p>Hello from the report test.</p>`,
  });
  if (listIds.length) {
    await rest(
      'POST',
      'campaign_lists',
      listIds.map((list_id) => ({ campaign_id: id, list_id })),
    );
  }
  return id;
}

function setStatus(id: string, fields: Record<string, unknown>) {
  return rest('PATCH', `campaigns?id=eq.${id}`, fields);
}

/** A private list with `count` confirmed subscribers; answers the list id and the subscribers. */
async function audience(tag: string, count: number) {
  const [list] = await rest<{ id: string }[]>('POST', 'lists', {
    slug: `${tag}-${randomUUID().slice(0, 6)}`,
    name: `Audience ${tag}`,
    visibility: 'private',
    optin: 'single',
  });
  const subscribers = await rest<{ id: string; email: string }[]>(
    'POST',
    'subscribers',
    Array.from({ length: count }, (_, i) => ({
      email: `${tag}-${i}-${Date.now()}-${randomUUID().slice(0, 4)}@example.com`,
    })),
  );
  await rest(
    'POST',
    'subscriptions',
    subscribers.map((s) => ({ subscriber_id: s.id, list_id: list!.id, status: 'confirmed' })),
  );
  return { listId: list!.id, subscribers };
}

/** The tile of one figure (its <dt> is `label`) in a StatTiles list. */
function tile(list: Locator, label: string): Locator {
  return list
    .locator('div')
    .filter({ has: list.page().locator('dt', { hasText: new RegExp(`^${label}$`) }) });
}

function row(page: Page, id: string) {
  return page.locator(`tr[data-campaign-id="${id}"]`);
}

test('campaigns by status, a status change arriving live, new draft and delete', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const suffix = randomUUID().slice(0, 6);
  const draftName = `Spring issue ${suffix}`;
  const draftId = await newDraft(draftName);
  const editor = await createTeamUser('editor');
  await signInWithPassword(page, editor, '/admin/campaigns/');

  await expect(page.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Campaigns' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(row(page, draftId)).toContainText(draftName);
  await expect(row(page, draftId)).toContainText('Draft');
  await expect(row(page, draftId).getByRole('link', { name: draftName })).toHaveAttribute(
    'href',
    `/admin/campaigns/edit/?id=${draftId}`,
  );
  await expect(page.getByText('Live', { exact: true })).toBeVisible();

  // The status moves on the server (as send-campaign would); the open page follows without a reload.
  await setStatus(draftId, { status: 'cancelled' });
  await expect(row(page, draftId)).toContainText('Cancelled');
  await expect(row(page, draftId).getByRole('link', { name: draftName })).toHaveAttribute(
    'href',
    `/admin/campaigns/report/?id=${draftId}`,
  );
  // An editor deletes drafts only; a cancelled campaign is an admin's to delete.
  await expect(row(page, draftId).getByRole('button', { name: /Delete/ })).toHaveCount(0);

  // The filters.
  const filters = page.getByRole('navigation', { name: 'Filter campaigns by status' });
  await filters.getByRole('link', { name: 'Cancelled' }).click();
  await expect(page).toHaveURL(/\?status=cancelled/);
  await expect(page.getByRole('heading', { name: 'Cancelled', level: 2 })).toBeVisible();
  await expect(row(page, draftId)).toBeVisible();
  await filters.getByRole('link', { name: 'Drafts' }).click();
  await expect(page.getByRole('heading', { name: 'Drafts', level: 2 })).toBeVisible();
  await expect(row(page, draftId)).toHaveCount(0);

  // New campaign: a choice of starting point; the blank editor stores nothing until its first save.
  await filters.getByRole('link', { name: 'All' }).click();
  // The editor's own campaigns (other specs may make drafts meanwhile).
  const countDrafts = async () =>
    (await rest<{ id: string }[]>('GET', `campaigns?created_by=eq.${editor.id}&select=id`)).length;
  const draftsBefore = await countDrafts();
  await page.getByRole('button', { name: 'New campaign' }).click();
  const picker = page.getByRole('dialog', { name: 'New campaign' });
  await expect(picker.getByRole('link', { name: /Plain newsletter/ })).toBeVisible();
  await expectNoAxeViolations(page, 'new campaign picker');
  await picker.getByRole('link', { name: /Blank campaign/ }).click();
  await expect(page).toHaveURL(/\/admin\/campaigns\/edit\/$/);
  await expect(page.getByText('Not saved yet')).toBeVisible();
  // Opened and left untouched: no "Untitled campaign" is left behind.
  await page.getByRole('link', { name: 'Campaigns', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/campaigns\/$/);
  expect(await countDrafts()).toBe(draftsBefore);
  await page.getByRole('button', { name: 'New campaign' }).click();
  await page
    .getByRole('dialog', { name: 'New campaign' })
    .getByRole('link', { name: /Blank campaign/ })
    .click();
  const newName = `Fresh ${draftName}`;
  await page.getByLabel('Name', { exact: true }).fill(newName);
  // The first save (autosave) creates it, and the address names it.
  await expect(page).toHaveURL(/\/admin\/campaigns\/edit\/\?id=[0-9a-f-]{36}/, { timeout: 10_000 });
  const newId = new URL(page.url()).searchParams.get('id')!;
  const [made] = await rest<{ name: string; status: string }[]>(
    'GET',
    `campaigns?id=eq.${newId}&select=name,status`,
  );
  expect(made).toEqual({ name: newName, status: 'draft' });
  expect(await countDrafts()).toBe(draftsBefore + 1);

  // Delete the new draft from the list, after confirming.
  await page.goto('/admin/campaigns/?status=draft');
  await row(page, newId)
    .getByRole('button', { name: `Delete ${newName}` })
    .click();
  const dialog = page.getByRole('dialog', { name: `Delete ${newName}?` });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page, 'delete campaign dialog');
  await dialog.getByRole('button', { name: 'Delete campaign' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Campaign “${newName}” deleted.`)).toBeVisible();
  await expect(row(page, newId)).toHaveCount(0);
  expect(await rest('GET', `campaigns?id=eq.${newId}&select=id`)).toEqual([]);

  // The dashboard's recent campaigns lead to the report of the cancelled one.
  await page.goto('/admin/');
  const recent = page.getByRole('list', { name: 'Recent campaigns' });
  await expect(recent.getByRole('link', { name: draftName })).toHaveAttribute(
    'href',
    `/admin/campaigns/report/?id=${draftId}`,
  );
  await expect(recent.getByRole('listitem').filter({ hasText: draftName })).toContainText(
    'Cancelled',
  );
  await screenshotsAtBothWidths(page, 'dashboard-recent-campaigns');

  await page.goto('/admin/campaigns/');
  await expect(row(page, draftId)).toBeVisible();
  await expectNoAxeViolations(page, 'campaigns list');
  await screenshotsAtBothWidths(page, 'campaigns-list');

  // An admin may delete the cancelled campaign.
  const admin = await createTeamUser('admin');
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await signInWithPassword(page, admin, '/admin/campaigns/?status=cancelled');
  await row(page, draftId)
    .getByRole('button', { name: `Delete ${draftName}` })
    .click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete campaign' }).click();
  await expect(row(page, draftId)).toHaveCount(0);
});

test('a report with failed deliveries; an admin retries them and they are sent', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const tag = `rep${randomUUID().slice(0, 5)}`;
  const { listId, subscribers } = await audience(tag, 5);
  const name = `Report ${tag}`;
  const id = await newDraft(name, [listId]);
  await rest(
    'POST',
    'deliveries',
    // PostgREST's bulk insert wants the same keys in every object.
    subscribers.map((s, i) => ({
      campaign_id: id,
      subscriber_id: s.id,
      status: i < 2 ? 'sent' : 'failed',
      attempts: i < 2 ? 1 : 3,
      sent_at: i < 2 ? new Date().toISOString() : null,
      last_error: i < 2 ? null : '451 4.3.0 mailbox temporarily unavailable',
    })),
  );
  await setStatus(id, { status: 'sending', recipients: 5, sent: 2, failed: 3, deferred: 4 });
  await setStatus(id, { status: 'sent' });
  const [settings] = await rest<{ track_opens: boolean; track_clicks: boolean }[]>(
    'GET',
    'settings?select=track_opens,track_clicks',
  );
  await rest('PATCH', 'settings?id=eq.true', { track_opens: false, track_clicks: false });

  try {
    const viewer = await createTeamUser('viewer');
    await signInWithPassword(page, viewer, `/admin/campaigns/report/?id=${id}`);
    await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
    const tiles = page.getByLabel('Delivery', { exact: true });
    await expect(tile(tiles, 'Recipients').locator('dd').first()).toHaveText('5');
    await expect(tile(tiles, 'Sent').locator('dd').first()).toHaveText('2');
    await expect(tile(tiles, 'Failed').locator('dd').first()).toHaveText('3');
    await expect(tile(tiles, 'Deferred').locator('dd').first()).toHaveText('4');
    await expect(page.getByText('Opens and clicks are not tracked.')).toBeVisible();
    // A viewer reads the log but cannot retry.
    await expect(page.getByRole('button', { name: 'Retry failed' })).toHaveCount(0);

    const admin = await createTeamUser('admin');
    await page.evaluate(() => localStorage.clear());
    await signInWithPassword(page, admin, `/admin/campaigns/report/?id=${id}`);
    await page.getByLabel('Delivery status').selectOption('failed');
    const log = page.getByRole('table', { name: 'Deliveries' });
    await expect(log.getByRole('row')).toHaveCount(4); // header + 3
    await expect(log).toContainText('451 4.3.0 mailbox temporarily unavailable');
    await expectNoAxeViolations(page, 'report with failed deliveries');
    await screenshotsAtBothWidths(page, 'campaign-report-failed');

    await page.getByRole('button', { name: 'Retry failed' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: '3 failed deliveries are back in the queue.' }),
    ).toBeVisible();
    // send-campaign kicked process-queue: the three go out and the campaign is sent again.
    await expect(tile(tiles, 'Sent').locator('dd').first()).toHaveText('5', {
      timeout: 60_000,
    });
    // The campaign becomes sent in the run's last step, after the counters the tiles show.
    await expect(page.getByRole('heading', { name, level: 2 }).locator('../..')).toContainText(
      'Sent',
      { timeout: 30_000 },
    );
    await page.getByLabel('Delivery status').selectOption('failed');
    await expect(page.getByText('No failed deliveries.')).toBeVisible();
    for (const s of subscribers.slice(2)) {
      await expect.poll(async () => (await mailsFor(s.email)).length).toBe(1);
    }
    expect((await mailsFor(subscribers[0]!.email)).length).toBe(0);

    // Tracking on: opens (machine opens apart) and clicks appear.
    await rest('PATCH', 'settings?id=eq.true', { track_opens: true, track_clicks: true });
    await rest('POST', 'events', [
      {
        subscriber_id: subscribers[0]!.id,
        campaign_id: id,
        type: 'opened',
        data: { machine: false },
      },
      {
        subscriber_id: subscribers[0]!.id,
        campaign_id: id,
        type: 'opened',
        data: { machine: false },
      },
      {
        subscriber_id: subscribers[1]!.id,
        campaign_id: id,
        type: 'opened',
        data: { machine: true },
      },
      {
        subscriber_id: subscribers[0]!.id,
        campaign_id: id,
        type: 'clicked',
        data: { url: 'https://example.com/' },
      },
    ]);
    await page.reload();
    const engagement = page.getByLabel('Engagement', { exact: true });
    await expect(tile(engagement, 'Opened')).toContainText('2 opens');
    await expect(tile(engagement, 'Machine opens')).toContainText('1');
    await expect(tile(engagement, 'Clicked')).toContainText('1 click');
    await expect(page.getByText('Opens and clicks are not tracked.')).toHaveCount(0);
    await expectNoAxeViolations(page, 'report with tracking');
    await screenshotsAtBothWidths(page, 'campaign-report-tracked');
  } finally {
    await rest('PATCH', 'settings?id=eq.true', settings);
  }
});

test('a paused send shows its progress bar', async ({ page }) => {
  test.setTimeout(60_000);
  const tag = `prg${randomUUID().slice(0, 5)}`;
  const { listId, subscribers } = await audience(tag, 5);
  const id = await newDraft(`Paused ${tag}`, [listId]);
  await rest(
    'POST',
    'deliveries',
    subscribers.map((s, i) => ({
      campaign_id: id,
      subscriber_id: s.id,
      status: i < 2 ? 'sent' : 'queued',
      attempts: i < 2 ? 1 : 0,
      // Far in the future, so no process-queue run takes them in the moment between the updates.
      next_attempt_at: new Date(Date.now() + 3_600_000).toISOString(),
    })),
  );
  await setStatus(id, { status: 'sending', recipients: 5, sent: 2 });
  await setStatus(id, { status: 'paused' });
  const viewer = await createTeamUser('viewer');
  await signInWithPassword(page, viewer, `/admin/campaigns/report/?id=${id}`);
  // The bar the editor shows too: recipients done out of all of them, "N of M sent", the percent.
  const bar = page.getByRole('progressbar', { name: 'Sending paused' });
  await expect(bar).toHaveAttribute('aria-valuemax', '5');
  await expect(bar).toHaveAttribute('aria-valuenow', '2');
  await expect(bar).toHaveAttribute('aria-valuetext', '2 of 5 sent');
  await expect(page.getByTestId('send-progress-text')).toHaveText('2 of 5 sent');
  await expect(page.getByText('40 %', { exact: true })).toBeVisible();
  await expectNoAxeViolations(page, 'paused report');
  await screenshotsAtBothWidths(page, 'campaign-report-paused');
});
