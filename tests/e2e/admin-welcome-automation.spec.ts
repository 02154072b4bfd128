// The welcome as an automation (issue 24) in Chromium: a list made public gets its "Welcome to
// <list>" automation; Settings → Emails links to it; its editor shows the Welcome badge, the
// "Only new sign-ups from the form" option ticked and the trigger in words; a reader who signs up
// through the form gets the welcome without anyone running the queue; once an admin pauses it in
// the editor, the next sign-up gets none. Screenshots of the editor at both widths.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { PUBLISHABLE_KEY, sql } from './browser-client';
import { expectNoAxeViolations, screenshotsAtBothWidths } from './page-checks';
import { E2E_SUPABASE_URL } from './ports';
import { resetClientRateLimit } from './public-kit';
import { createTeamUser, insertRows, mailsFor, signInWithPassword } from './team';

const madeLists: string[] = [];
test.afterEach(async () => {
  const ids = madeLists.splice(0);
  await sql('delete from public.automations where trigger_list_id = any($1::uuid[])', [ids]);
  await sql('delete from public.lists where id = any($1::uuid[])', [ids]);
});

async function signUp(email: string, list: string): Promise<void> {
  await resetClientRateLimit();
  const response = await fetch(`${E2E_SUPABASE_URL}/functions/v1/subscribe`, {
    method: 'POST',
    headers: { apikey: PUBLISHABLE_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, lists: [list] }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

test('a public list’s welcome automation: linked from Settings, marked, sent on sign-up, stopped by Pause', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const tag = randomUUID().slice(0, 8);
  const [list] = await insertRows<{ id: string; slug: string; name: string }>('lists', [
    { slug: `hello-${tag}`, name: `Hello ${tag}`, visibility: 'private', optin: 'single' },
  ]);
  madeLists.push(list!.id);
  // Private: none yet. Made public: its welcome is seeded, active.
  await sql(`update public.lists set visibility = 'public' where id = $1`, [list!.id]);

  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, '/admin/settings/emails/');
  await expect(page.getByText('The welcome is now an automation — edit it in')).toBeVisible();
  await page.getByRole('link', { name: `Welcome to ${list!.name}` }).click();

  await expect(page.getByRole('heading', { name: `Welcome to ${list!.name}` })).toBeVisible();
  const settings = page.getByRole('form', { name: 'Automation settings' });
  await expect(settings.getByText('Welcome', { exact: true })).toBeVisible();
  await expect(settings).toContainText('pause it to stop welcomes');
  await expect(page.getByLabel('Only new sign-ups from the form')).toBeChecked();
  const steps = page.getByRole('list', { name: 'Steps' });
  await expect(steps.getByRole('listitem')).toHaveText([
    new RegExp(`When someone signs up to ${list!.name} through the form`),
    /Send “Welcome to \{\{ site\.name \}\}”/,
  ]);
  await expectNoAxeViolations(page, 'welcome automation');
  await screenshotsAtBothWidths(page, 'automation-welcome');
  await page.setViewportSize({ width: 1280, height: 900 });

  // A sign-up through the form: the welcome, with no queue run by the test.
  const first = `first-${tag}@example.com`;
  await signUp(first, list!.slug);
  await expect
    .poll(async () => (await mailsFor(first)).map((m) => m.subject), { timeout: 30_000 })
    .toEqual(['Welcome to The Postbox Letter']);
  expect((await mailsFor(first))[0]!.text).toContain(`You are now subscribed to ${list!.name}`);

  // Paused: the next sign-up gets nothing.
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByText('Paused.')).toBeVisible();
  const second = `second-${tag}@example.com`;
  await signUp(second, list!.slug);
  const [{ n }] = (
    await sql(
      `select count(*)::int as n from public.automation_enrolments e
         join public.subscribers s on s.id = e.subscriber_id where s.email = $1`,
      [second],
    )
  ).rows as [{ n: number }];
  expect(n).toBe(0);
  expect(await mailsFor(second)).toHaveLength(0);

  // The list marks it as the welcome, with its trigger in words.
  await page.goto('/admin/automations/');
  const row = page.getByRole('row').filter({ hasText: `Welcome to ${list!.name}` });
  await expect(row).toContainText('Welcome · Signs up through the form');
  await expect(row).toContainText('Paused');
});
