// /admin/automations/ in Chromium (issue 24), one journey: an admin builds a two-step automation in
// the editor (welcome, wait 3 days, a second email) and starts it; a subscriber confirmed on its list
// gets the welcome, the second email once the database's clock is moved 3 days, and after they
// unsubscribe through the email's link, nothing more. The open report counts each step live (no
// reload: Realtime on team:automations), an open of the tracked welcome included. Screenshots of
// both pages at both widths.
// A second journey chooses segments in the editor: a "continue only if in a segment" step and a
// goal segment, and only the reader in the one and not the other gets the email.
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { SECRET_KEY, sql } from './browser-client';
import { E2E_SUPABASE_URL } from './ports';
import { createTeamUser, insertRows, mailsFor, signInWithPassword } from './team';
import { screenshotsAtBothWidths } from './page-checks';

const madeLists: string[] = [];
test.afterEach(async () => {
  await sql('update public.settings set track_opens = false, track_clicks = false');
  await sql('delete from public.automations where name like $1', ['Journey %']);
  await sql('delete from public.segments where name like $1', ['E2E % %']);
  await sql('delete from public.lists where id = any($1::uuid[])', [madeLists.splice(0)]);
});

async function service(path: string, body: unknown) {
  const response = await fetch(`${E2E_SUPABASE_URL}${path}`, {
    method: 'POST',
    headers: {
      apikey: SECRET_KEY,
      Authorization: `Bearer ${SECRET_KEY}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return response;
}

/** The figure of the report's tile `label` in the group `group` ("Enrolments" or "Emails"). */
function figure(page: Page, group: string, label: string) {
  return page
    .getByLabel(group, { exact: true })
    .locator('div', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd')
    .first();
}

/** Runs the queue now (the scheduler would within 10 s) and waits for `count` mails to `address`. */
async function mailsAfterQueue(address: string, count: number) {
  await expect
    .poll(
      async () => {
        await service('/functions/v1/process-queue', {});
        return (await mailsFor(address)).length;
      },
      { timeout: 20_000 },
    )
    .toBe(count);
  return mailsFor(address);
}

test('build a two-step automation, receive both emails across a moved clock, unsubscribe, nothing more', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const tag = randomUUID().slice(0, 8);
  const [list] = await insertRows<{ id: string; slug: string; name: string }>('lists', [
    { slug: `auto-${tag}`, name: `Course ${tag}`, visibility: 'private', optin: 'single' },
  ]);
  madeLists.push(list!.id);
  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, '/admin/automations/');
  await expect(page.getByRole('heading', { level: 1, name: 'Automations' })).toBeVisible();

  await page.getByLabel('New automation').fill(`Journey ${tag}`);
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page.getByRole('heading', { name: `Journey ${tag}` })).toBeVisible();
  await page.getByLabel('List', { exact: true }).selectOption({ label: list!.name });
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();

  const addStep = async (fill: () => Promise<void>) => {
    await page.getByRole('button', { name: 'Add step' }).click();
    await fill();
    await page.getByRole('button', { name: 'Add step' }).last().click();
    await expect(page.getByRole('form', { name: 'Add a step' })).toHaveCount(0);
  };
  await addStep(async () => {
    await page.getByLabel('Subject', { exact: true }).fill('Welcome, {{ subscriber.first_name }}');
    await page.getByLabel('Body (Markdown)').fill('Lesson one.');
  });
  await addStep(async () => {
    await page.getByLabel('Step', { exact: true }).selectOption('wait');
    await page.getByLabel('Amount').fill('3');
  });
  await addStep(async () => {
    await page.getByLabel('Subject', { exact: true }).fill('Lesson two');
    await page.getByLabel('Body (Markdown)').fill('Three days later.');
  });
  const steps = page.getByRole('list', { name: 'Steps' });
  await expect(steps.getByRole('listitem')).toHaveText([
    /When someone joins/,
    /Send “Welcome, \{\{ subscriber.first_name \}\}”/,
    /Wait 3 days/,
    /Send “Lesson two”/,
  ]);
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByText('Started.')).toBeVisible();
  const report = page.getByRole('region', { name: 'Report' });
  await expect(report.getByText('Live', { exact: true })).toBeVisible();
  await expect(figure(page, 'Enrolments', 'In progress')).toHaveText('0');
  await expect(report.getByText('Nobody is enrolled yet.', { exact: false })).toBeVisible();
  // Tracking on (after the page read the settings: the Opened figure appears with the first open).
  await sql('update public.settings set track_opens = true, track_clicks = true');

  // A subscriber joins the list (single opt-in: confirmed at once).
  const email = `joiner-${tag}@example.com`;
  const [person] = await insertRows<{ id: string }>('subscribers', [{ email, name: 'Jo Joiner' }]);
  await insertRows('subscriptions', [
    { subscriber_id: person!.id, list_id: list!.id, status: 'confirmed' },
  ]);
  const first = await mailsAfterQueue(email, 1);
  expect(first[0]!.subject).toBe('Welcome, Jo');
  // The open report moves without a reload.
  await expect(figure(page, 'Emails', 'Sent')).toHaveText('1');
  await expect(figure(page, 'Enrolments', 'In progress')).toHaveText('1');

  // Jo opens the welcome (an hour after it was sent, so not a mail scanner's prefetch).
  await sql(
    `update public.automation_sends set sent_at = now() - interval '1 hour' where subscriber_id = $1`,
    [person!.id],
  );
  const pixel = /<img src="([^"]*\/functions\/v1\/track\?t=[^"]*)"/.exec(first[0]!.html)?.[1];
  expect(pixel, 'the welcome carries an open pixel').toBeTruthy();
  const open = await fetch(pixel!.replace(/&amp;/g, '&'), {
    headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126' },
  });
  expect(open.status).toBe(200);
  await expect(figure(page, 'Emails', 'Opened')).toHaveText('1');
  const welcomeRow = report.getByRole('row', { name: /Welcome/ });
  await expect(welcomeRow.getByRole('cell').nth(5)).toContainText('1');

  await service('/rest/v1/rpc/move_clock', { p_by: '3 days 1 minute' });
  const both = await mailsAfterQueue(email, 2);
  expect(both[1]!.subject).toBe('Lesson two');

  // The report counts it, still without a reload; screenshots of the editor and the list.
  await expect(figure(page, 'Enrolments', 'Completed')).toHaveText('1');
  await expect(figure(page, 'Emails', 'Sent')).toHaveText('2');
  await expect(report.getByRole('row', { name: /Lesson two/ })).toBeVisible();
  await screenshotsAtBothWidths(page, 'automation-editor');
  await page.getByRole('link', { name: 'All automations' }).click();
  await expect(page.getByRole('link', { name: `Journey ${tag}` })).toBeVisible();
  await screenshotsAtBothWidths(page, 'automations');

  // Unsubscribe through the second email's one-click link; a re-entry would need it on, and the
  // enrolment is over: nothing more arrives however far the clock moves.
  const link = /(http\S+\/functions\/v1\/unsubscribe\?token=\S+)/.exec(both[1]!.text)?.[1];
  const unsubscribeUrl = link ?? /\/unsubscribe\/\?token=([^&\s]+)/.exec(both[1]!.text)?.[1];
  expect(unsubscribeUrl).toBeTruthy();
  const token = link ? new URL(link).searchParams.get('token') : unsubscribeUrl;
  const one = await fetch(`${E2E_SUPABASE_URL}/functions/v1/unsubscribe?token=${token}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  expect(one.status).toBe(200);
  await service('/rest/v1/rpc/move_clock', { p_by: '30 days' });
  await service('/functions/v1/process-queue', {});
  expect(await mailsFor(email)).toHaveLength(2);
});

test('a step that continues only in a segment, and a goal segment, chosen in the editor', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const tag = randomUUID().slice(0, 8);
  const [list] = await insertRows<{ id: string; slug: string; name: string }>('lists', [
    { slug: `seg-${tag}`, name: `Members ${tag}`, visibility: 'private', optin: 'single' },
  ]);
  madeLists.push(list!.id);
  const rule = (key: string, value: string) => ({
    match: 'all',
    rules: [{ field: `attributes.${key}`, op: 'eq', value }],
  });
  await insertRows('segments', [
    { name: `E2E VIP ${tag}`, rules: rule('plan', 'vip') },
    { name: `E2E Bought ${tag}`, rules: rule('bought', 'yes') },
  ]);
  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, '/admin/automations/');
  await page.getByLabel('New automation').fill(`Journey ${tag}`);
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page.getByRole('heading', { name: `Journey ${tag}` })).toBeVisible();
  await page.getByLabel('List', { exact: true }).selectOption({ label: list!.name });
  await page.getByLabel('Goal').selectOption({ label: `Exit on joining E2E Bought ${tag}` });
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();

  await page.getByRole('button', { name: 'Add step' }).click();
  await page.getByLabel('Step', { exact: true }).selectOption('condition');
  await page.getByLabel('Segment').selectOption({ label: `E2E VIP ${tag}` });
  await page.getByRole('button', { name: 'Add step' }).last().click();
  await expect(page.getByRole('form', { name: 'Add a step' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Add step' }).click();
  await page.getByLabel('Subject', { exact: true }).fill('For VIPs');
  await page.getByLabel('Body (Markdown)').fill('Thank you.');
  await page.getByRole('button', { name: 'Add step' }).last().click();
  const steps = page.getByRole('list', { name: 'Steps' });
  await expect(steps.getByRole('listitem')).toHaveText([
    /When someone joins/,
    new RegExp(`Continue only if in the segment E2E VIP ${tag}`),
    /Send “For VIPs”/,
  ]);
  await screenshotsAtBothWidths(page, 'automation-segments');
  // The choices survive a reload.
  await page.reload();
  await expect(page.getByLabel('Goal')).toHaveValue(/[0-9a-f-]{36}/);
  await expect(page.getByLabel('Goal').locator('option:checked')).toHaveText(
    `Exit on joining E2E Bought ${tag}`,
  );
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByText('Started.')).toBeVisible();

  const people = await insertRows<{ id: string; email: string }>('subscribers', [
    { email: `vip-${tag}@example.com`, attributes: { plan: 'vip' } },
    { email: `plain-${tag}@example.com`, attributes: { plan: 'free' } },
    { email: `bought-${tag}@example.com`, attributes: { plan: 'vip', bought: 'yes' } },
  ]);
  await insertRows(
    'subscriptions',
    people.map((p) => ({ subscriber_id: p.id, list_id: list!.id, status: 'confirmed' })),
  );
  const [vip] = await mailsAfterQueue(people[0]!.email, 1);
  expect(vip!.subject).toBe('For VIPs');
  await service('/functions/v1/process-queue', {});
  expect(await mailsFor(people[1]!.email)).toHaveLength(0);
  expect(await mailsFor(people[2]!.email)).toHaveLength(0);
  await expect(figure(page, 'Enrolments', 'Completed')).toHaveText('1');
  await expect(figure(page, 'Enrolments', 'Exited')).toHaveText('2');
});

// The list's figures (issue 24): an automation's row shows what its emails did — sent, then open,
// click and unsubscribe rates with their counts — and moves without a reload (team:automations)
// as its welcome is sent, opened and unsubscribed from; at 390 px the rows are cards and nothing
// overflows. A viewer's reading, the role with the least rights.
test('the automations list shows each automation’s sent, open, click and unsubscribe figures, live', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const tag = randomUUID().slice(0, 8);
  const [list] = await insertRows<{ id: string }>('lists', [
    { slug: `figures-${tag}`, name: `Figures ${tag}`, visibility: 'private', optin: 'single' },
  ]);
  madeLists.push(list!.id);
  const [automation] = await insertRows<{ id: string }>('automations', [
    { name: `Journey figures ${tag}`, trigger_list_id: list!.id },
  ]);
  await insertRows('automation_steps', [
    {
      automation_id: automation!.id,
      position: 1,
      kind: 'email',
      subject: 'Hello',
      body_md: 'Read [the guide](https://example.com/guide).',
    },
  ]);
  await sql(`update public.automations set status = 'active' where id = $1`, [automation!.id]);
  await sql('update public.settings set track_opens = true, track_clicks = false');

  await signInWithPassword(page, await createTeamUser('viewer'), '/admin/automations/');
  const row = page.getByRole('row', { name: new RegExp(`Journey figures ${tag}`) });
  const cell = (label: string) => row.locator(`td[data-label="${label}"]`);
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  await expect(cell('Sent')).toHaveAttribute('title', '0 emails sent, 0 failed');
  await expect(cell('Opened')).toHaveAttribute(
    'title',
    '0 opened; no email sent yet · 0 opens in all',
  );
  // Clicks are not tracked: a dash, and the note says so.
  await expect(cell('Clicked')).toHaveAttribute('title', 'Clicks are not tracked');
  await expect(cell('Clicked').locator('[aria-hidden="true"]').first()).toHaveText('—');
  await expect(page.getByText(/Clicks are not tracked \(“—”\)/)).toBeVisible();

  const email = `figures-${tag}@example.com`;
  const [person] = await insertRows<{ id: string }>('subscribers', [{ email }]);
  await insertRows('subscriptions', [
    { subscriber_id: person!.id, list_id: list!.id, status: 'confirmed' },
  ]);
  const [mail] = await mailsAfterQueue(email, 1);
  await expect(cell('Sent')).toHaveAttribute('title', '1 email sent, 0 failed');
  await expect(cell('Completed')).toHaveText('1');

  // Opened an hour after the send (not a scanner's prefetch): 100 % of one email.
  await sql(
    `update public.automation_sends set sent_at = now() - interval '1 hour' where subscriber_id = $1`,
    [person!.id],
  );
  const pixel = /<img src="([^"]*\/functions\/v1\/track\?t=[^"]*)"/.exec(mail!.html)?.[1];
  expect(pixel, 'the email carries an open pixel').toBeTruthy();
  const open = await fetch(pixel!.replace(/&amp;/g, '&'), {
    headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126' },
  });
  expect(open.status).toBe(200);
  await expect(cell('Opened')).toHaveAttribute(
    'title',
    '1 opened of 1 email sent (100%) · 1 open in all',
  );
  await expect(cell('Opened').locator('[aria-hidden="true"]')).toHaveText(['100%', '1']);

  // Unsubscribed through the email's one-click link: counted for this automation.
  const token = /\/unsubscribe\/\?token=([^&\s"]+)/.exec(mail!.text)?.[1];
  expect(token).toBeTruthy();
  const one = await fetch(`${E2E_SUPABASE_URL}/functions/v1/unsubscribe?token=${token}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  expect(one.status).toBe(200);
  await expect(cell('Unsubscribed')).toHaveAttribute(
    'title',
    '1 unsubscribed of 1 email sent (100%)',
  );

  await screenshotsAtBothWidths(page, 'automations-figures');
  // At 390 px each row is a card and the page does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(cell('Opened')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const box = await row.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
});
