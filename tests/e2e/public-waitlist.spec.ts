// Waitlist journeys in Chromium against the e2e emulator: sign up on the home page, confirm from
// the email, see the place and referral link; a friend joins through that link and the first
// member's waitlist page updates live, without a reload.
import { expect, test } from '@playwright/test';
import { sql } from './browser-client';
import { linkIn, screenshots, signUp, uniqueEmail, waitForMail } from './public-kit';
import { E2E_SITE_URL } from './ports';

const WAITLIST = 'Early access waitlist';

test('subscribe to the waitlist, confirm from the email, see the place and referral link', async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const email = uniqueEmail('wait');
  await page.goto('/');
  await signUp(page, email, [WAITLIST]);

  const [mail] = await waitForMail(email);
  const confirmLink = linkIn(mail!, '/confirm/');
  await page.goto(confirmLink);
  await expect(page.getByRole('heading', { name: 'You are confirmed' })).toBeFocused();
  await expect(page.getByText(`You are now subscribed to ${WAITLIST}.`)).toBeVisible();
  await expect(page.getByTestId('waitlist-position')).toHaveText(/^#\d+$/);
  await expect(page.getByTestId('waitlist-referrals')).toHaveText('0');

  const link = page.getByLabel('Your referral link');
  const referral = await link.inputValue();
  expect(referral).toMatch(
    new RegExp(`^${E2E_SITE_URL.replace(/[.:/]/g, '\\$&')}/\\?ref=[\\w-]+&list=early-access$`),
  );
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  await expect(
    page.getByRole('button', { name: 'Copied' }).locator('svg.lucide-check'),
  ).toHaveCount(1);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(referral);
  await screenshots(page, testInfo, 'confirm-waitlist');

  // Opened again, the link changes nothing and shows the current state: confirmed, the place
  // and the same referral link.
  await page.goto(confirmLink);
  await expect(page.getByRole('heading', { name: 'You are already confirmed' })).toBeVisible();
  await expect(page.getByText('You opened this link before, so nothing changed')).toBeVisible();
  await expect(page.getByText(`You are subscribed to ${WAITLIST}.`)).toBeVisible();
  await expect(page.getByTestId('waitlist-position')).toHaveText(/^#\d+$/);
  await expect(page.getByLabel('Your referral link')).toHaveValue(referral);
  await screenshots(page, testInfo, 'confirm-used');
  // The welcome email links to the live place page.
  const welcome = (await waitForMail(email, 2))[1]!;
  await page.goto(linkIn(welcome, '/waitlist/'));
  await expect(page.getByTestId('waitlist-position')).toHaveText(/^#\d+$/);
});

test('a friend joins through the referral link; the waitlist page updates live', async ({
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const member = await browser.newPage();
  const memberEmail = uniqueEmail('member');
  await member.goto('/');
  await signUp(member, memberEmail, [WAITLIST]);
  await member.goto(linkIn((await waitForMail(memberEmail))[0]!, '/confirm/'));
  const referral = await member.getByLabel('Your referral link').inputValue();
  await member.getByRole('link', { name: 'Follow your place live' }).click();
  await expect(member).toHaveURL(/\/waitlist\/\?code=/);
  await expect(member.getByTestId('waitlist-referrals')).toHaveText('0');
  const totalBefore = Number(await member.getByTestId('waitlist-total').textContent());
  const positionBefore = await member.getByTestId('waitlist-position').textContent();
  await expect(member.getByText('Updates live')).toBeVisible();
  // A marker that a reload would wipe.
  await member.evaluate(
    () => ((window as unknown as { sameDocument: boolean }).sameDocument = true),
  );

  // The friend follows the shared link: the waitlist is pre-checked and the code goes along.
  const friend = await browser.newPage();
  const friendEmail = uniqueEmail('friend');
  await friend.goto(referral);
  await expect(friend.getByText('A friend invited you.')).toBeVisible();
  await expect(friend.getByRole('checkbox', { name: new RegExp(WAITLIST) })).toBeChecked();
  await expect(friend.getByRole('checkbox', { name: /The newsletter/ })).not.toBeChecked();
  await screenshots(friend, testInfo, 'home-referral');
  const request = friend.waitForRequest((req) => req.url().endsWith('/functions/v1/subscribe'));
  await signUp(friend, friendEmail);
  const body = (await request).postDataJSON();
  expect(body).toMatchObject({ email: friendEmail, lists: ['early-access'] });
  expect(body.ref).toBe(new URL(referral).searchParams.get('ref'));

  // Still pending: the friend's own waitlist page says so.
  const friendMail = (await waitForMail(friendEmail))[0]!;
  await expect(member.getByTestId('waitlist-referrals')).toHaveText('0');

  await friend.goto(linkIn(friendMail, '/confirm/'));
  await expect(friend.getByRole('heading', { name: 'You are confirmed' })).toBeVisible();

  // The member's page moved on its own.
  await expect(member.getByTestId('waitlist-referrals')).toHaveText('1');
  await expect(member.getByTestId('waitlist-total')).toHaveText(String(totalBefore + 1));
  expect(
    await member.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
  ).toBe(true);
  // One confirmed referral puts the member first among those with fewer referrals.
  const positionAfter = await member.getByTestId('waitlist-position').textContent();
  expect(Number(positionAfter?.slice(1))).toBeLessThanOrEqual(Number(positionBefore?.slice(1)));
  await expect(member.getByText(/with 1 referral\./)).toBeVisible();
  // "In line" is explained in words, with the live total, and so is the order of the line.
  await expect(member.getByTestId('waitlist-explained')).toContainText(
    'People with more referrals go first; with as many, whoever confirmed earlier does.',
  );
  await expect(member.getByTestId('waitlist-explained')).toContainText(
    `In line is how many people are waiting on ${WAITLIST} right now, you included: ${totalBefore + 1}.`,
  );
  await screenshots(member, testInfo, 'waitlist');
  await member.close();
  await friend.close();
});

test('waitlist page: an unknown code and a missing code', async ({ page }, testInfo) => {
  await page.goto('/waitlist/?code=nobody-has-this');
  await expect(
    page.getByRole('heading', { name: 'We could not find that place in line' }),
  ).toBeVisible();
  await screenshots(page, testInfo, 'waitlist-not-found');
  await page.goto('/waitlist/');
  await expect(page.getByRole('heading', { name: 'This link is incomplete' })).toBeVisible();
});

test('waitlist page of a member who has not confirmed yet', async ({ page }, testInfo) => {
  const email = uniqueEmail('pending');
  await page.goto('/?list=early-access');
  await expect(page.getByRole('checkbox', { name: new RegExp(WAITLIST) })).toBeChecked();
  await signUp(page, email);
  // The code is only in the database until the address is confirmed; read it as an admin would.
  const { rows } = await sql('select referral_code from public.subscribers where email = $1', [
    email,
  ]);
  await page.goto(`/waitlist/?code=${rows[0].referral_code}`);
  await expect(
    page.getByRole('heading', { name: 'Confirm your email to get your place' }),
  ).toBeVisible();
  await screenshots(page, testInfo, 'waitlist-pending');
});
