// Merge tags in the campaign editor (issue 21), in Chromium against the e2e emulator: a tag chosen
// from Insert merge tag goes in at the cursor and the preview — the email's own document, footer
// included — shows the sample reader's value at desktop and phone widths; an unknown variable is a
// warning, a syntax error names its line in place of the preview. Screenshots at 1280 and 390 px.
import { createHmac } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { SERVICE_ROLE_KEY } from '../../emulator/keys';
import { screenshotsAtBothWidths } from './page-checks';
import { E2E_SUPABASE_URL } from './ports';
import { createTeamUser, insertRows, signInWithPassword } from './team';
import { draftCampaign, listWith, shots, type Row } from './campaign-editor-kit';

/** A web version link's token, signed as the e2e emulator's functions sign it (local default secret). */
function webToken(campaignId: string): string {
  const secret =
    process.env.POSTBOX_TOKEN_SECRET ?? 'postbox-local-token-secret-not-for-production';
  const body = Buffer.from(JSON.stringify({ p: 'web', s: '', c: campaignId })).toString(
    'base64url',
  );
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

test('a merge tag typed in the editor shows in the preview; errors and unknown tags are named', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const editor = await createTeamUser('editor');
  const id = await draftCampaign('Merge tags', []);
  await signInWithPassword(page, editor, `/admin/campaigns/edit/?id=${id}`);
  const body = page.getByLabel('Body (Markdown)');
  await body.fill('# Hello\n\nHi ');
  await body.press('Control+End');
  await page
    .getByRole('combobox', { name: 'Insert merge tag' })
    .selectOption({ label: 'First name' });
  await expect(body).toHaveValue('# Hello\n\nHi {{ subscriber.first_name | default: "friend" }}');
  await body.press('Control+End');
  await body.pressSequentially(', from {{ site.name }}.');

  const preview = page.frameLocator('[data-testid="campaign-preview"]');
  await expect(preview.getByText('Hi Ada, from')).toBeVisible();
  // The footer is part of what subscribers get, so the preview shows it.
  await expect(preview.getByRole('link', { name: 'Unsubscribe' })).toBeVisible();
  // The branded layout links the web version above the email and again in its footer.
  await expect(preview.getByRole('link', { name: 'View in browser' })).toHaveCount(2);
  await expect(preview.getByRole('link', { name: 'View in browser' }).last()).toBeVisible();
  await shots(page, 'campaign-merge-tags');

  await page.getByRole('button', { name: 'Phone' }).click();
  await expect(page.getByRole('button', { name: 'Phone' })).toHaveAttribute('aria-pressed', 'true');
  const frame = page.getByTestId('campaign-preview');
  await expect(frame).toHaveAttribute('data-width', 'phone');
  expect((await frame.boundingBox())!.width).toBeLessThanOrEqual(390);
  await frame.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/admin-campaign-merge-tags-phone-preview.png' });

  await body.press('Control+End');
  await body.pressSequentially(' {{ subscriber.nmae }}');
  await expect(page.getByText('Unknown merge tag: {{ subscriber.nmae }}')).toBeVisible();

  await body.fill('Line one\n\n{% if subscriber.name %}\nno end');
  await expect(page.getByRole('alert').filter({ hasText: 'Body, line' })).toContainText(
    'Body, line 3: tag {% if subscriber.name %} not closed',
  );
  await expect(page.getByTestId('campaign-preview')).toHaveCount(0);
});

test('the web version shows the email with the defaults, no reader data', async ({ page }) => {
  const list = await listWith('Web', 1);
  const subject = 'Web {{ subscriber.first_name | default: "edition" }}';
  const body_md =
    '# Hello {{ subscriber.first_name | default: "friend" }}\n\nThis is the web version.';
  const [campaign] = await insertRows<Row>('campaigns', [{ name: 'E2E web', subject, body_md }]);
  await insertRows('campaign_lists', [{ campaign_id: campaign!.id, list_id: list.id }]);
  const started = await fetch(`${E2E_SUPABASE_URL}/rest/v1/rpc/start_campaign_send`, {
    method: 'POST',
    headers: {
      apikey: SERVICE_ROLE_KEY,
      Authorization: `Bearer ${SERVICE_ROLE_KEY}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({
      p_campaign_id: campaign!.id,
      p_body_html: '',
      p_body_md: body_md,
      p_subject: subject,
    }),
  });
  expect(started.status).toBe(200);

  await page.goto(`/web/?token=${webToken(campaign!.id)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Web edition' })).toBeVisible();
  const email = page.frameLocator('[data-testid="web-version"]');
  await expect(email.getByRole('heading', { name: 'Hello friend' })).toBeVisible();
  await expect(email.getByRole('link', { name: 'Unsubscribe' })).toHaveCount(0);
  // Sized to the email, not a fixed box with empty space below it.
  await expect
    .poll(async () => (await page.getByTestId('web-version').boundingBox())!.height)
    .toBeLessThan(600);
  await screenshotsAtBothWidths(page, 'web-version', 'public');

  await page.goto('/web/?token=not-a-token');
  await expect(page.getByRole('heading', { name: 'We could not find this email' })).toBeVisible();
});
