// "Use a password instead" on /login/ comes with a way to reset and set the password (issue 23):
// a member asks for a reset on the login page, the emailed link signs them in and opens Settings →
// Your password, they set a new one, and sign in with it in a fresh browser.
import { expect, test } from '@playwright/test';
import { createTeamUser, signInWithPassword, waitForAuthLink } from './team';
import { expectNoAxeViolations, screenshotsAtBothWidths } from './page-checks';

test('a forgotten password is reset from the login page and set in Settings', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const member = await createTeamUser('editor');
  await page.goto('/login/');
  await page.getByRole('button', { name: 'Use a password instead' }).click();
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  await expect(
    page.getByText('Enter your email address, then ask for the reset link.'),
  ).toBeVisible();
  await page.getByLabel('Email address').fill(member.email);
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  await expect(
    page.getByText(`If ${member.email} is on the team, we emailed a link.`),
  ).toBeVisible();
  await screenshotsAtBothWidths(page, 'login-password-reset');

  await page.goto(await waitForAuthLink(member.email, 1));
  await expect(page).toHaveURL(/\/admin\/settings\/$/);
  const card = page.getByRole('form', { name: 'Your password' });
  await card.getByLabel('New password', { exact: true }).fill('short');
  await card.getByLabel('New password again').fill('short');
  await card.getByRole('button', { name: 'Set password' }).click();
  await expect(card.getByText('Use at least 8 characters.')).toBeVisible();
  const fresh = `new-pw-${Date.now()}`;
  await card.getByLabel('New password', { exact: true }).fill(fresh);
  await card.getByLabel('New password again').fill(`${fresh}x`);
  await card.getByRole('button', { name: 'Set password' }).click();
  await expect(card.getByText('The two passwords are not the same.')).toBeVisible();
  await card.getByLabel('New password again').fill(fresh);
  await card.getByRole('button', { name: 'Set password' }).click();
  await expect(card.getByText('Your password is set.')).toBeVisible();
  await expectNoAxeViolations(page, 'password card');
  await card.scrollIntoViewIfNeeded();
  await screenshotsAtBothWidths(page, 'settings-password');

  // The new password signs in; the old one no longer does.
  const other = await browser.newContext();
  const again = await other.newPage();
  await signInWithPassword(again, { email: member.email, password: fresh });
  await other.close();
  const third = await browser.newContext();
  const old = await third.newPage();
  await old.goto('/login/');
  await old.getByRole('button', { name: 'Use a password instead' }).click();
  await old.getByLabel('Email address').fill(member.email);
  await old.getByLabel('Password').fill(member.password);
  await old.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(old.getByText('That email and password do not match.')).toBeVisible();
  await third.close();
});
