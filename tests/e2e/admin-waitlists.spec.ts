// /admin/waitlists/ in Chromium against the e2e emulator (issue 23): a waitlist of this test only,
// ranked as the public page ranks it; a search; an admin lets the top 2 in to another list and the
// others' places move up live, also on an open public place page; one more is let in with an access
// email, drafted to exactly them and sent; one with the target list's welcome; the line ordered by
// joining with a milestone that moves a reader up; a viewer reads but cannot let in.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { sql } from './browser-client';
import { createTeamUser, insertRows, mailsFor, signInWithPassword } from './team';
import { expectNoAxeViolations, screenshotsAtBothWidths } from './page-checks';

interface Person {
  id: string;
  email: string;
  referral_code: string;
}

// The lists a test made: public ones would otherwise show on the home page of later specs.
const madeLists: string[] = [];
test.afterEach(async () => {
  await sql('delete from public.lists where id = any($1::uuid[])', [madeLists.splice(0)]);
});

/** A waitlist with `n` confirmed people (the first confirmed first) and a target list. */
async function arrange(n: number) {
  const tag = randomUUID().slice(0, 8);
  const [wl, target] = await insertRows<{ id: string; slug: string; name: string }>('lists', [
    {
      slug: `wl-${tag}`,
      name: `Beta ${tag}`,
      visibility: 'public',
      optin: 'double',
      waitlist: true,
    },
    {
      slug: `users-${tag}`,
      name: `Users ${tag}`,
      visibility: 'private',
      optin: 'single',
      waitlist: false,
    },
  ]);
  madeLists.push(wl!.id, target!.id);
  const people: Person[] = [];
  for (let i = 0; i < n; i++) {
    const [p] = await insertRows<Person>('subscribers', [
      { email: `p${i}-${tag}@example.com`, name: `Person ${i}` },
    ]);
    await insertRows('subscriptions', [
      { subscriber_id: p!.id, list_id: wl!.id, status: 'confirmed' },
    ]);
    const { rows } = await sql('select referral_code from public.subscribers where id = $1', [
      p!.id,
    ]);
    people.push({ ...p!, referral_code: rows[0].referral_code });
  }
  return { wl: wl!, target: target!, people };
}

test('an admin sees the line in rank order, lets the top 2 in (places move live), then one more with an access email', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const { wl, target, people } = await arrange(4);
  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, `/admin/waitlists/?list=${wl.slug}`);
  await expect(page.getByRole('heading', { name: `${wl.name}: 4 in line` })).toBeVisible();
  const places = page.getByTestId('waitlist-place');
  await expect(places).toHaveText(['#1', '#2', '#3', '#4']);
  await expect(page.getByRole('row').nth(1)).toContainText(people[0]!.email);

  await page.getByLabel('Search the line').fill(people[2]!.email.slice(0, 4));
  await expect(places).toHaveText(['#3']);
  await page.getByLabel('Search the line').fill('');
  await expect(places).toHaveCount(4);
  await screenshotsAtBothWidths(page, 'waitlists');

  // The fourth person watches their public place page meanwhile.
  const publicContext = await browser.newContext();
  const watcher = await publicContext.newPage();
  await watcher.goto(`/waitlist/?code=${people[3]!.referral_code}&list=${wl.slug}`);
  await expect(watcher.getByTestId('waitlist-position')).toHaveText('#4');

  await page.getByRole('button', { name: 'Let in…' }).click();
  const dialog = page.getByRole('dialog', { name: `Let people in from ${wl.name}` });
  await dialog.getByLabel('How many from the top of the line').fill('2');
  await dialog.getByLabel('Move them to').selectOption({ label: target.name });
  await expect(dialog).toContainText(`leave ${wl.name}`);
  await expect(dialog).toContainText(`${target.name}'s welcome is not sent`);
  await dialog.getByLabel('Write them an access email').uncheck();
  await expect(dialog).toContainText('No email is sent');
  await expectNoAxeViolations(page, 'let in dialog');
  await screenshotsAtBothWidths(page, 'waitlists-let-in');
  await dialog.getByRole('button', { name: 'Let in', exact: true }).click();

  await expect(page.getByText(`2 let in to ${target.name}.`)).toBeVisible();
  await expect(page.getByRole('heading', { name: `${wl.name}: 2 in line` })).toBeVisible();
  await expect(places).toHaveText(['#1', '#2']);
  await expect(page.getByRole('row').nth(1)).toContainText(people[2]!.email);
  // Live on the public page too, without a reload.
  await expect(watcher.getByTestId('waitlist-position')).toHaveText('#2');
  await publicContext.close();

  // Chosen people: tick the last one and let them in.
  await page.getByRole('checkbox', { name: `Select ${people[3]!.email}` }).check();
  await page.getByRole('button', { name: 'Let in 1 selected' }).click();
  await expect(dialog).toContainText('The person you selected is let in.');
  // This time with the access email: its draft opens in the editor, narrowed to that one person.
  await dialog.getByLabel('Write them an access email').check();
  await dialog.getByRole('button', { name: 'Let in', exact: true }).click();
  const notice = page.getByText('1 person was let in. This is their access email');
  await expect(notice).toBeVisible();
  // The notice is said once: the address loses `&let_in=1`, so a reload does not repeat it.
  await expect(page).toHaveURL(/\/admin\/campaigns\/edit\/\?id=[0-9a-f-]{36}$/);
  await expect(page.getByLabel('Subject')).toHaveValue("You're in: {{ site.name }}");
  await expect(page.getByTestId('recipient-count')).toHaveText('1 recipient');
  await expectNoAxeViolations(page, 'access email draft', {
    exclude: ['[data-testid="campaign-preview"]'],
  });
  await screenshotsAtBothWidths(page, 'waitlists-access-email');
  await page.reload();
  await expect(page.getByLabel('Subject')).toBeVisible();
  await expect(notice).toHaveCount(0);
  await page.getByRole('button', { name: 'Send now' }).click();
  await page
    .getByRole('dialog', { name: 'Send this campaign now?' })
    .getByRole('button', { name: 'Send to 1' })
    .click();
  await expect
    .poll(async () => (await mailsFor(people[3]!.email)).map((m) => m.subject), { timeout: 30_000 })
    .toEqual([expect.stringMatching(/^You're in: \S/)]);
  // The others let in earlier got nothing: they were let in without it.
  expect(await mailsFor(people[0]!.email)).toHaveLength(0);

  await page.goto(`/admin/waitlists/?list=${wl.slug}`);
  await expect(places).toHaveText(['#1']);
});

test('a viewer reads the line but has no Let in', async ({ page }) => {
  const { wl } = await arrange(1);
  const viewer = await createTeamUser('viewer');
  await signInWithPassword(page, viewer, `/admin/waitlists/?list=${wl.slug}`);
  await expect(page.getByRole('heading', { name: `${wl.name}: 1 in line` })).toBeVisible();
  await expect(page.getByText('Admins and owners can let people in.')).toBeVisible();
  await expect(page.getByRole('button', { name: /Let in/ })).toHaveCount(0);
  await expect(page.getByRole('checkbox')).toHaveCount(0);
});

test('Let in with the target list’s welcome: enrolled in its welcome automation, the welcome in the inbox', async ({
  page,
}) => {
  test.slow();
  const { wl, target, people } = await arrange(2);
  // The welcome is an automation per public list (issue 24): made public, the target gets its own.
  await sql(`update public.lists set visibility = 'public' where id = $1`, [target.id]);
  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, `/admin/waitlists/?list=${wl.slug}`);
  await expect(page.getByRole('heading', { name: `${wl.name}: 2 in line` })).toBeVisible();
  await page.getByRole('button', { name: 'Let in…' }).click();
  const dialog = page.getByRole('dialog', { name: `Let people in from ${wl.name}` });
  await dialog.getByLabel('How many from the top of the line').fill('1');
  await dialog.getByLabel('Move them to').selectOption({ label: target.name });
  await dialog.getByLabel('Write them an access email').uncheck();
  await dialog.getByLabel(`Also send ${target.name}'s welcome email`).check();
  await expect(dialog).toContainText(
    `${target.name}'s welcome is sent to them now; no other email.`,
  );
  await dialog.getByRole('button', { name: 'Let in', exact: true }).click();

  await expect(
    page.getByText(
      `1 let in to ${target.name}. 1 enrolled in its welcome automation, which sends the welcome now.`,
    ),
  ).toBeVisible();
  // Nobody runs the queue here: the Let in started a run.
  await expect
    .poll(async () => (await mailsFor(people[0]!.email)).map((m) => m.subject), { timeout: 30_000 })
    .toEqual([expect.stringMatching(/^Welcome to \S/)]);
  const [welcome] = await mailsFor(people[0]!.email);
  expect(welcome!.text).toContain(`You are now subscribed to ${target.name}`);
  expect(await mailsFor(people[1]!.email)).toHaveLength(0);
});

test('an admin orders the line by joining, and a milestone that moves readers up reorders it', async ({
  page,
  browser,
}) => {
  test.slow();
  const { wl, people } = await arrange(3);
  // Person 2 (last to join) brings a friend who confirms: one referral.
  const [friend] = await insertRows<{ id: string }>('subscribers', [
    { email: `friend-${randomUUID().slice(0, 8)}@example.com`, referred_by: people[2]!.id },
  ]);
  await insertRows('subscriptions', [
    { subscriber_id: friend!.id, list_id: wl.id, status: 'confirmed' },
  ]);
  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, `/admin/waitlists/?list=${wl.slug}`);
  const first = page.getByRole('row').nth(1);
  // Most referrals first (the default): the one with a referral leads.
  await expect(first).toContainText(people[2]!.email);

  const card = page.getByRole('region', { name: 'Order and rewards' });
  await card.getByLabel('Order of the line').selectOption('joined');
  await expect(first).toContainText(people[0]!.email);
  await expect(page.getByTestId('waitlist-place')).toHaveText(['#1', '#2', '#3', '#4']);
  await expect(page.getByRole('row').nth(3)).toContainText(people[2]!.email);

  await card.getByLabel('At referrals', { exact: true }).fill('1');
  await card.getByLabel('Move up (places)').fill('2');
  await card.getByRole('button', { name: 'Add reward' }).click();
  await expect(card.getByRole('list', { name: 'Reward milestones' })).toContainText(
    'At 1 referral: Move up 2 places in line',
  );
  await expect(first).toContainText(people[2]!.email);
  await expect(page.getByRole('row').nth(2)).toContainText(people[0]!.email);
  await screenshotsAtBothWidths(page, 'waitlist-order');

  // The reader's page says how the line is ordered.
  const readerContext = await browser.newContext();
  const reader = await readerContext.newPage();
  await reader.goto(`/waitlist/?code=${people[2]!.referral_code}&list=${wl.slug}`);
  await expect(reader.getByTestId('waitlist-position')).toHaveText('#1');
  await expect(reader.getByTestId('waitlist-explained')).toContainText(
    'The line is in the order people confirmed; reaching a reward milestone below moves you up.',
  );
  await readerContext.close();
});

test('an admin adds a reward milestone and a reader sees it on their waitlist page', async ({
  page,
  browser,
}) => {
  test.slow();
  const { wl, people } = await arrange(1);
  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, `/admin/waitlists/?list=${wl.slug}`);
  const card = page.getByRole('region', { name: 'Order and rewards' });
  await expect(card.getByText('No rewards yet.')).toBeVisible();
  await card.getByLabel('At referrals', { exact: true }).fill('1');
  await card.getByLabel('Reward', { exact: true }).fill('Stickers in the mail');
  await card.getByRole('button', { name: 'Add reward' }).click();
  await expect(card.getByRole('list', { name: 'Reward milestones' })).toContainText(
    'At 1 referral: Stickers in the mail',
  );
  // The same number twice is refused in words, and what was typed stays.
  await card.getByLabel('Reward', { exact: true }).fill('Again');
  await card.getByRole('button', { name: 'Add reward' }).click();
  await expect(
    card.getByText('There is already a reward at that number of referrals.'),
  ).toBeVisible();
  await expect(card.getByLabel('Reward', { exact: true })).toHaveValue('Again');
  await screenshotsAtBothWidths(page, 'waitlist-rewards');

  // A context of its own (axe needs a page of a browser.newContext()), so the reader is not signed in.
  const readerContext = await browser.newContext();
  const reader = await readerContext.newPage();
  await reader.goto(`/waitlist/?code=${people[0]!.referral_code}`);
  const rewards = reader.getByTestId('waitlist-rewards');
  await expect(rewards).toContainText(
    'Next at 1 referral: Stickers in the mail (1 more friend to go)',
  );
  await expectNoAxeViolations(reader, 'waitlist page with rewards');
  await screenshotsAtBothWidths(reader, 'waitlist-rewards', 'public');
  await readerContext.close();
});
