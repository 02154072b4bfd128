// The emails themselves (issue 21), in Chromium against the e2e emulator: Settings → Emails'
// preview frame holds the document a test send delivers (the only difference allowed: the links'
// tokens), the test email's unsubscribe link opens the "nothing was changed" state, and every
// kind of email — campaign, confirmation, welcome (its list's welcome automation's email, issue 24),
// already subscribed, magic link, invite — is
// screenshotted from the HTML the mail catcher caught, at 600 and 390 px.
import { expect, test, type Page } from '@playwright/test';
import { PUBLISHABLE_KEY } from './browser-client';
import { draftCampaign } from './campaign-editor-kit';
import { screenshotsAtBothWidths } from './page-checks';
import { E2E_SUPABASE_URL } from './ports';
import { resetClientRateLimit } from './public-kit';
import {
  createTeamUser,
  mailsFor,
  signInWithPassword,
  uniqueEmail,
  type Mail,
  type TeamUser,
} from './team';

/** Differences a sent message may have from the preview: the links' signed tokens (`token=`, and the unsubscribe link's `preferences=`). */
const ALLOWED = [/(token|preferences)=[^"&\s<]*/g];
const comparable = (html: string) =>
  ALLOWED.reduce((text, pattern) => text.replace(pattern, '$1=…'), html)
    .replace(/\r\n/g, '\n')
    .trim();

async function mailWith(address: string, subject: RegExp | string): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailsFor(address)).find((m) =>
          typeof subject === 'string' ? m.subject === subject : subject.test(m.subject),
        );
        return Boolean(found);
      },
      { message: `mail "${subject}" for ${address}`, timeout: 20_000 },
    )
    .toBe(true);
  return found!;
}

/** The caught HTML, as a mail client's window shows it, at 600 and 390 px. */
async function emailShots(page: Page, name: string, html: string): Promise<void> {
  for (const width of [600, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.setContent(html, { waitUntil: 'load' });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow, `${name} at ${width} px is wider than the window`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/email-${name}-${width}.png`, fullPage: true });
  }
}

test('Settings → Emails: the preview is the test email; its links change nothing', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const admin = await createTeamUser('admin');
  await signInWithPassword(page, admin, '/admin/settings/emails/');
  // The welcome is an automation per public list now (issue 24): the page links to them.
  await expect(page.getByText('The welcome is now an automation — edit it in')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Welcome to The newsletter' })).toHaveAttribute(
    'href',
    /\/admin\/automations\/edit\/\?id=/,
  );
  await expect(page.getByRole('button', { name: 'Welcome' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Confirmation (double opt-in)' }).click();
  const subject = page.getByLabel('Subject');
  await subject.fill('Say yes to ');
  await page
    .getByRole('combobox', { name: 'Insert merge tag' })
    .selectOption({ label: 'Site name' });
  await expect(subject).toHaveValue('Say yes to {{ site.name }}');
  const frame = page.frameLocator('[data-testid="email-preview"]');
  await expect(
    frame.getByText('Please confirm that you want to receive Weekly News and Product Updates'),
  ).toBeVisible();
  await expect(page.getByText(/^Subject: Say yes to /)).toBeVisible();
  await screenshotsAtBothWidths(page, 'settings-emails');

  const preview = (await page.getByTestId('email-preview').getAttribute('srcdoc'))!;
  await page.getByRole('button', { name: 'Send test to me' }).click();
  await expect(page.getByText(`Test sent to ${admin.email}.`)).toBeVisible();
  const mail = await mailWith(admin.email, /^\[Test\] Say yes to /);
  expect(comparable(mail.html)).toBe(comparable(preview));
  await emailShots(page, 'test-confirmation', mail.html);

  const unsubscribe = /href="([^"]*\/unsubscribe\/\?test=1&amp;token=[^"]*)"/.exec(mail.html)![1]!;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(unsubscribe.replace(/&amp;/g, '&'));
  await expect(
    page.getByRole('heading', { name: 'This is a test email — nothing was changed' }),
  ).toBeVisible();
  await screenshotsAtBothWidths(page, 'unsubscribe-test-email', 'public');
});

test('the campaign editor: the preview is the test email, tables and code included', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const editor = await createTeamUser('editor');
  const subject = `Preview bytes ${Date.now()}`;
  const campaign = await draftCampaign(subject, []);
  await signInWithPassword(page, editor, `/admin/campaigns/edit/?id=${campaign}`);
  const body = page.getByLabel('Body (Markdown)');
  await expect(body).toHaveValue(/Hello from the e2e run/);
  // What used to differ between a preview stylesheet and the inbox: a table, code, a quote, a
  // button-like lone link, an image, and the footer.
  await body.fill(
    [
      `# ${subject}`,
      'A paragraph with **bold**, _italics_ and [a link](https://example.com/read).',
      '| Plan | Price |\n| :--- | ---: |\n| Indie | $9 |\n| Team | $29 |',
      '> A quoted line.',
      '```\nconst answer = 42;\n```',
      '[Read the whole thing](https://example.com/whole)',
    ].join('\n\n'),
  );
  const frame = page.frameLocator('[data-testid="campaign-preview"]');
  await expect(frame.getByText('$29', { exact: true })).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: /Saved at|All changes saved/ }),
  ).toBeVisible({
    timeout: 10_000,
  });
  const preview = (await page.getByTestId('campaign-preview').getAttribute('srcdoc'))!;
  await page.getByRole('button', { name: 'Send test' }).click();
  await expect(page.getByText(`Test sent to ${editor.email}.`)).toBeVisible({ timeout: 15_000 });
  const mail = await mailWith(editor.email, `[Test] ${subject}`);
  expect(comparable(mail.html)).toBe(comparable(preview));
  await emailShots(page, 'campaign-editor-test', mail.html);
});

/** A member's access token, from Auth's password grant (the test acting, not the page). */
async function accessToken(user: TeamUser): Promise<string> {
  const response = await fetch(`${E2E_SUPABASE_URL}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: PUBLISHABLE_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

test('every email as sent, at 600 and 390 px', async ({ page }) => {
  test.setTimeout(90_000);
  const owner = await createTeamUser('owner');
  const token = await accessToken(owner);
  // Publishable-key calls send no Authorization header, as supabase-js does without a session.
  const call = (path: string, body: unknown, bearer?: string) =>
    fetch(`${E2E_SUPABASE_URL}${path}`, {
      method: 'POST',
      headers: {
        apikey: PUBLISHABLE_KEY,
        ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
    });

  const campaign = await draftCampaign('Rendering check', []);
  const sent = await call(
    '/functions/v1/send-campaign',
    { campaign_id: campaign, action: 'test' },
    token,
  );
  expect(sent.status).toBe(200);
  await emailShots(page, 'campaign', (await mailWith(owner.email, '[Test] Rendering check')).html);

  const reader = uniqueEmail('reader');
  await resetClientRateLimit();
  expect(
    (await call('/functions/v1/subscribe', { email: reader, lists: ['newsletter'] })).status,
  ).toBe(200);
  const confirmation = await mailWith(reader, /^Confirm your subscription/);
  await emailShots(page, 'confirmation', confirmation.html);
  const confirmToken = /\/confirm\/\?token=([\w.-]+)/.exec(confirmation.text)![1];
  expect((await call('/functions/v1/confirm', { token: confirmToken })).status).toBe(200);
  await emailShots(page, 'welcome', (await mailWith(reader, /^Welcome to /)).html);
  // On a waitlist the welcome (its automation's email) names the place and the links.
  const waiting = uniqueEmail('waiting');
  await resetClientRateLimit();
  expect(
    (await call('/functions/v1/subscribe', { email: waiting, lists: ['early-access'] })).status,
  ).toBe(200);
  const waitingToken = /\/confirm\/\?token=([\w.-]+)/.exec(
    (await mailWith(waiting, /^Confirm your subscription/)).text,
  )![1];
  expect((await call('/functions/v1/confirm', { token: waitingToken })).status).toBe(200);
  const waitlistWelcome = await mailWith(waiting, /^Welcome to /);
  expect(waitlistWelcome.text).toMatch(/You are number \d+ on the Early access waitlist\./);
  expect(waitlistWelcome.text).toContain('/waitlist/?code=');
  await emailShots(page, 'welcome-waitlist', waitlistWelcome.html);
  await resetClientRateLimit();
  await call('/functions/v1/subscribe', { email: reader, lists: ['newsletter'] });
  await emailShots(
    page,
    'already-subscribed',
    (await mailWith(reader, /^You are already subscribed/)).html,
  );

  expect((await call('/auth/v1/otp', { email: owner.email, create_user: false })).status).toBe(200);
  await emailShots(page, 'magic-link', (await mailWith(owner.email, /^Your sign-in link/)).html);
  const invitee = uniqueEmail('invitee');
  const invited = await call(
    '/functions/v1/invite-member',
    { email: invitee, role: 'editor' },
    token,
  );
  expect(invited.status).toBe(200);
  const invite = await mailWith(invitee, /./);
  expect(invite.text).toContain(owner.email);
  await emailShots(page, 'invite', invite.html);
});
