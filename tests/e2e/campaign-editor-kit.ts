// Fixtures and checks shared by the campaign editor's e2e specs (admin-campaign-editor and
// admin-campaign-send): lists with subscribers, draft campaigns, the campaign row as the service
// role sees it, mail arrival, and the editor's screenshots.
import { randomUUID } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { SERVICE_ROLE_KEY } from '../../emulator/keys';
import { screenshotsAtBothWidths } from './page-checks';
import { E2E_SUPABASE_URL } from './ports';
import { insertRows, mailsFor, uniqueEmail } from './team';

export interface Row {
  id: string;
}

/**
 * A fresh private list with `confirmed` confirmed subscribers (plus one pending who never counts);
 * private, so the public signup form other specs check keeps the seed's lists only.
 */
export async function listWith(
  name: string,
  confirmed: number,
): Promise<{ id: string; name: string }> {
  const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${randomUUID().slice(0, 8)}`;
  const [list] = await insertRows<Row>('lists', [
    { slug, name: `${name} ${slug.slice(-8)}`, visibility: 'private' },
  ]);
  const people = await insertRows<Row>(
    'subscribers',
    Array.from({ length: confirmed + 1 }, () => ({ email: uniqueEmail('reader') })),
  );
  await insertRows(
    'subscriptions',
    people.map((p, i) => ({
      subscriber_id: p.id,
      list_id: list!.id,
      status: i < confirmed ? 'confirmed' : 'pending',
    })),
  );
  return { id: list!.id, name: `${name} ${slug.slice(-8)}` };
}

export async function draftCampaign(subject: string, listIds: string[]): Promise<string> {
  const [campaign] = await insertRows<Row>('campaigns', [
    { name: `E2E ${subject}`, subject, body_md: `# ${subject}\n\nHello from the e2e run.` },
  ]);
  if (listIds.length) {
    await insertRows(
      'campaign_lists',
      listIds.map((list_id) => ({ campaign_id: campaign!.id, list_id })),
    );
  }
  return campaign!.id;
}

/** The campaign row as the service role reads it (the test's view, not the page's). */
export async function campaignRow(id: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${E2E_SUPABASE_URL}/rest/v1/campaigns?id=eq.${id}`, {
    headers: { apikey: SERVICE_ROLE_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
  });
  return ((await response.json()) as Record<string, unknown>[])[0]!;
}

export async function waitForMail(address: string, subject: string) {
  await expect
    .poll(async () => (await mailsFor(address)).map((m) => m.subject), { timeout: 20_000 })
    .toContain(subject);
}

/**
 * The preview is left out of axe runs: a sandboxed iframe without scripts cannot host axe (injecting
 * into it never answers). Its content is the sanitised email, checked by lib/campaign-render's tests.
 */
export const NOT_THE_PREVIEW = { exclude: ['[data-testid="campaign-preview"]'] };

/** Cancel campaign, confirmed in its dialog ("Stop and cancel"); waits for the page to say Cancelled. */
export async function cancelAfterConfirming(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Cancel campaign' }).click();
  await page
    .getByRole('dialog', { name: 'Cancel this campaign?' })
    .getByRole('button', { name: 'Stop and cancel' })
    .click();
  await expect(page.getByText('Cancelled', { exact: true })).toBeVisible();
}

/** Full-page shots from the top (the sticky bar), plus the preview in view: Chromium leaves a
 * sandboxed iframe outside the viewport blank in a full-page capture. */
export async function shots(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshotsAtBothWidths(page, name);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId('campaign-preview').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/admin-${name}-preview-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** The editor's live recipient count. */
export const recipientCount = (page: Page) => page.getByTestId('recipient-count');
