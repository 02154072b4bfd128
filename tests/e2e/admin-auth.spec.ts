// Team sign-in end to end: the signed-out redirect, password sign-in and its errors, a stranger's
// "No access" page (and that their token reads nothing), callback errors, sign-out, the emailed
// 6-digit code, and the invite email (Auth's emails come through the auth-email hook).
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { E2E_SUPABASE_URL } from './ports';
import {
  accessTokenIn,
  createTeamUser,
  mailsFor,
  signInWithPassword,
  snap,
  uniqueEmail,
  waitForAuthLink,
  waitForAuthMail,
  waitForSignInCode,
  type Mail,
} from './team';
import { PUBLISHABLE_KEY, SERVICE_ROLE_KEY } from '../../emulator/keys';
import { expectNoAxeViolations } from './page-checks';

test('a signed-out visit to /admin/ goes to /login/ and comes back after signing in', async ({
  page,
}) => {
  const admin = await createTeamUser('admin');
  await page.goto('/admin/lists/');
  await expect(page).toHaveURL(/\/login\/\?next=%2Fadmin%2Flists%2F$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await signInWithPassword(page, admin, '/admin/lists/');
  await expect(page).toHaveURL(/\/admin\/lists\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Lists' })).toBeVisible();
  // Signed in already: /login/ sends the member on.
  await page.goto('/login/');
  await expect(page).toHaveURL(/\/admin\/$/);
});

test('password sign-in shows its errors in place and keeps what was typed', async ({ page }) => {
  const admin = await createTeamUser('admin');
  await page.goto('/login/');
  await page.getByRole('button', { name: 'Use a password instead' }).click();
  const email = page.getByLabel('Email address');
  await email.fill('not-an-address');
  await page.getByLabel('Password').fill('whatever');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(email).toHaveAccessibleDescription('Enter a valid email address.');
  await expect(email).toBeFocused();

  await email.fill(admin.email);
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'do not match' })).toHaveText(
    'That email and password do not match.',
  );
  await expect(email).toHaveValue(admin.email);
  await expect(page).toHaveURL(/\/login\//);
});

test('a stranger who signs in sees "No access", reads nothing, and can sign out', async ({
  page,
}, testInfo) => {
  const stranger = await createTeamUser(null);
  await signInWithPassword(page, stranger);
  await expect(page.getByRole('heading', { name: 'No access' })).toBeVisible();
  await expect(page.getByText(stranger.email)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0);
  await expectNoAxeViolations(page, 'no access');
  await snap(page, testInfo, 'no-access-1280');

  // With the stranger's own token, the API hands out no team data at all.
  const token = await accessTokenIn(page);
  for (const table of ['subscribers', 'subscriptions', 'members', 'events']) {
    const response = await fetch(`${E2E_SUPABASE_URL}/rest/v1/${table}?select=*`, {
      headers: { apikey: PUBLISHABLE_KEY, Authorization: `Bearer ${token}` },
    });
    expect(response.status, table).toBe(200);
    expect(await response.json(), table).toEqual([]);
  }

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login\/$/);
  await page.goto('/admin/');
  await expect(page).toHaveURL(/\/login\/\?next=/);
});

test('sign-ups are closed: an address not on the team gets no link and is told so', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('outsider');
  await page.goto('/login/');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'not on the team' })).toHaveText(
    'This address is not on the team yet. If you were invited, open the link in your invitation email; otherwise ask an owner of the team to invite you.',
  );
  await snap(page, testInfo, 'login-not-on-team-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, testInfo, 'login-not-on-team-390');
  await expect(page.getByLabel('Email address')).toHaveValue(email);
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toHaveCount(0);
  // Nothing was mailed, and no account was made for the address.
  expect(await mailsFor(email)).toEqual([]);
  const users = await fetch(`${E2E_SUPABASE_URL}/auth/v1/admin/users?per_page=1000`, {
    headers: { apikey: SERVICE_ROLE_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
  });
  const { users: all } = (await users.json()) as { users: { email: string }[] };
  expect(all.map((user) => user.email)).not.toContain(email);
});

test('the callback explains a failed link and leads back to /login/', async ({
  page,
}, testInfo) => {
  await page.goto(
    '/auth/callback/?error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
  );
  await expect(page.getByRole('heading', { name: 'We could not sign you in' })).toBeFocused();
  await expect(page.getByText('This sign-in link has expired or was already used.')).toBeVisible();
  await expectNoAxeViolations(page, 'callback error');
  await snap(page, testInfo, 'callback-error-1280');
  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await expect(page).toHaveURL(/\/login\/$/);

  // A code this browser never asked for (another browser's link) fails the same readable way.
  await page.goto('/auth/callback/?code=00000000-0000-0000-0000-000000000000');
  await expect(page.getByRole('heading', { name: 'We could not sign you in' })).toBeVisible();
});

test('a magic link brings a member back to the page they asked for, and works once', async ({
  page,
  context,
}) => {
  const viewer = await createTeamUser('viewer');
  const before = (await mailsFor(viewer.email)).length;
  await page.goto('/admin/lists/');
  await expect(page).toHaveURL(/\/login\/\?next=%2Fadmin%2Flists%2F$/);
  await page.getByLabel('Email address').fill(viewer.email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  const link = await waitForAuthLink(viewer.email, before + 1);
  await page.goto(link);
  await expect(page).toHaveURL(/\/admin\/lists\/$/);
  await expect(page.getByRole('banner').getByText('Viewer', { exact: true })).toBeVisible();

  // The same link again, in a fresh browser: Auth refuses it and the page says so.
  const other = await context.browser()!.newContext();
  const second = await other.newPage();
  await second.goto(link);
  await expect(second.getByRole('heading', { name: 'We could not sign you in' })).toBeVisible();
  await expect(second.getByRole('link', { name: 'Back to sign in' })).toBeVisible();
  await other.close();
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`login page looks finished and passes axe (${colorScheme})`, async ({ page }, testInfo) => {
    await page.emulateMedia({ colorScheme });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.goto('/login/');
      await expect(page.getByRole('button', { name: 'Email me a sign-in link' })).toBeVisible();
      await expectNoAxeViolations(page, `login ${width} ${colorScheme}`);
      await snap(page, testInfo, `login-${width}-${colorScheme}`);
    }
    await page.getByRole('button', { name: 'Use a password instead' }).click();
    await expect(page.getByLabel('Password')).toBeVisible();
    await expectNoAxeViolations(page, `login password ${colorScheme}`);
    await snap(page, testInfo, `login-password-390-${colorScheme}`);
  });
}

/** Shows an email's HTML part at a mail client's widths (600 and 390 px) and saves screenshots. */
async function snapEmail(page: Page, testInfo: TestInfo, mail: Mail, name: string) {
  for (const width of [600, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.setContent(mail.html);
    await snap(page, testInfo, `${name}-${width}`);
  }
}

test('the 6-digit code from the email signs in where it is typed', async ({ page }, testInfo) => {
  const viewer = await createTeamUser('viewer');
  const before = (await mailsFor(viewer.email)).length;
  await page.goto('/admin/lists/');
  await page.getByLabel('Email address').fill(viewer.email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  await expect(
    page.getByText('Open the link in this browser, or enter the code here'),
  ).toBeVisible();
  const code = await waitForSignInCode(viewer.email, before + 1);
  const mail = await waitForAuthMail(viewer.email, before + 1);
  expect(mail.subject).toMatch(/^Your sign-in link for /);
  expect(mail.text).toMatch(/Sign in: http\S+\/auth\/v1\/verify\?/);

  const field = page.getByLabel('6-digit code');
  await field.fill('12');
  await page.getByRole('button', { name: 'Sign in with the code' }).click();
  await expect(field).toHaveAccessibleDescription('Enter the 6-digit code from the email.');
  await expect(field).toBeFocused();
  await field.fill(code === '000000' ? '111111' : '000000');
  await page.keyboard.press('Enter');
  await expect(field).toHaveAccessibleDescription(
    'That code is not right or has expired. Check the latest email, or send a new one.',
  );
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await snap(page, testInfo, `login-code-error-${width}`);
  }
  await field.fill(` ${code.slice(0, 3)} ${code.slice(3)} `);
  await page.getByRole('button', { name: 'Sign in with the code' }).click();
  await expect(page).toHaveURL(/\/admin\/lists\/$/);
  await expect(page.getByRole('banner').getByText('Viewer', { exact: true })).toBeVisible();

  await snapEmail(page, testInfo, mail, 'email-sign-in');
});

test("an invitee's email names the team, who invited them and the role", async ({
  page,
  context,
}, testInfo) => {
  const owner = await createTeamUser('owner');
  await signInWithPassword(page, owner);
  const invitee = uniqueEmail('invitee');
  const res = await fetch(`${E2E_SUPABASE_URL}/functions/v1/invite-member`, {
    method: 'POST',
    headers: {
      apikey: PUBLISHABLE_KEY,
      Authorization: `Bearer ${await accessTokenIn(page)}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ email: invitee, role: 'editor' }),
  });
  expect(res.status).toBe(200);
  const mail = await waitForAuthMail(invitee, 1);
  expect(mail.subject).toMatch(new RegExp(`^${owner.email} invited you to the team at `));
  expect(mail.text).toContain(`${owner.email} invited you to help run`);
  expect(mail.text).toContain('as an editor (writing campaigns and sending tests)');
  expect(mail.text).toContain('sign in on the login page with this address');
  await snapEmail(page, testInfo, mail, 'email-invite');

  const other = await context.browser()!.newContext();
  const invited = await other.newPage();
  await invited.goto(await waitForAuthLink(invitee, 1));
  await expect(invited).toHaveURL(/\/admin\/$/);
  await expect(invited.getByRole('banner').getByText('Editor', { exact: true })).toBeVisible();
  await other.close();
});
