// Issue 22: no page shifts more than 0.02 while it loads, on every route of the static export
// (pages/) with data present: the public pages through working links (tokens signed as the e2e
// emulator signs them) and the admin pages as the owner, with a sent campaign, a draft, a tag, a
// segment, an automation and an image beside the seed. One load per route, to keep the run short:
// public pages at phone width (one column at every width, and the narrow one wraps most), admin
// pages at desktop width (where their cards sit side by side). /, the archive, /admin/ and
// /admin/settings/ are measured at both widths in instant.spec.ts.
import { createHmac, randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { SERVICE_ROLE_KEY } from '../../emulator/keys';
import { renderCampaignPreviewHtml } from '../../lib/campaign-preview';
import { sql } from './browser-client';
import { expectSteady, recordShifts } from './layout-shift-kit';
import { E2E_SUPABASE_URL } from './ports';
import { createTeamUser, insertRows, signInWithPassword } from './team';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 720 };
const SERVICE = { apikey: SERVICE_ROLE_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` };

/** A route and what it shows once its data is in. */
type Route = [path: string, loaded: (page: Page) => Promise<void>];

/** A self-service link's token, signed with the e2e emulator's (local default) secret. */
function token(payload: Record<string, unknown>): string {
  const secret =
    process.env.POSTBOX_TOKEN_SECRET ?? 'postbox-local-token-secret-not-for-production';
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

const shows = (text: string | RegExp) => (page: Page) =>
  expect(page.getByText(text).first()).toBeVisible();
const titled =
  (name: string | RegExp, level = 1) =>
  (page: Page) =>
    expect(page.getByRole('heading', { name, level })).toBeVisible();

/**
 * Opens every route at one size and checks each one's shifts (softly, so one run names every route
 * over budget); a route is measured once it shows its data and nothing says it is loading.
 */
async function measure(page: Page, size: typeof PHONE, routes: Route[]): Promise<void> {
  await page.setViewportSize(size);
  const measured: string[] = [];
  for (const [path, loaded] of routes) {
    const total = await expectSteady(
      page,
      path,
      async (p) => {
        await loaded(p);
        await expect(p.locator('[aria-busy="true"]')).toHaveCount(0);
      },
      { soft: true },
    );
    measured.push(`${path.split('?')[0]} ${total.toFixed(4)}`);
  }
  test.info().annotations.push({
    type: `layout shift at ${size.width} px`,
    description: measured.join('; '),
  });
}

/** A sent campaign to the newsletter, in the public archive, as the report and /web/ show it. */
async function sentCampaign(run: string): Promise<string> {
  const body = `# Every route\n\nAn issue for the layout-shift check.\n\n${'Some text. '.repeat(60)}`;
  const { rows } = await sql(
    `insert into public.campaigns (name, subject, preheader, body_md, body_html, archive, slug)
     values ('Every route', 'Every route', 'No jumps', $1, $2, true, $3) returning id`,
    [body, renderCampaignPreviewHtml(body), `e2e-every-route-${run}`],
  );
  const id = (rows[0] as { id: string }).id;
  await sql(
    `insert into public.campaign_lists (campaign_id, list_id)
     select $1, id from public.lists where slug = 'newsletter'`,
    [id],
  );
  await sql(`update public.campaigns set status = 'sending' where id = $1`, [id]);
  await sql(`update public.campaigns set status = 'sent' where id = $1`, [id]);
  return id;
}

test('no layout shift while any public page loads, through working links', async ({ page }) => {
  test.setTimeout(60_000);
  const run = randomUUID().slice(0, 8);
  const campaign = await sentCampaign(run);
  const { rows } = await sql(
    `select slug, id from public.lists where slug in ('newsletter', 'early-access')`,
  );
  const list = Object.fromEntries(rows.map((r: { slug: string; id: string }) => [r.slug, r.id]));
  // A reader of the newsletter with a confirm link pending for the waitlist.
  const { rows: readers } = await sql(
    `insert into public.subscribers (email, name) values ($1, 'Cleo Steady') returning id, email`,
    [`steady-${run}@example.com`],
  );
  const reader = readers[0] as { id: string; email: string };
  const s = reader.id;
  await insertRows('subscriptions', [
    { subscriber_id: s, list_id: list.newsletter, status: 'confirmed' },
    { subscriber_id: s, list_id: list['early-access'], status: 'pending' },
  ]);
  // Given when the waitlist subscription was written (a trigger).
  const { rows: codes } = await sql(`select referral_code from public.subscribers where id = $1`, [
    s,
  ]);
  const code = (codes[0] as { referral_code: string }).referral_code;
  const nonce = randomUUID().replaceAll('-', '');
  await sql(`insert into private.confirm_nonces (nonce, subscriber_id) values ($1, $2)`, [
    nonce,
    s,
  ]);
  const preferences = token({ p: 'preferences', s });
  const unsubscribe = token({ p: 'unsubscribe', s, l: [list.newsletter], c: campaign });
  try {
    await recordShifts(page);
    await measure(page, PHONE, [
      // In this order: the confirmation gives the reader a place in line.
      [
        `/confirm/?token=${token({ p: 'confirm', s, l: [list['early-access']], n: nonce })}`,
        titled(/^Your place on/, 2),
      ],
      [`/waitlist/?code=${code}`, shows(/You are .* with/)],
      [`/preferences/?token=${preferences}`, shows(`Emails go to ${reader.email}.`)],
      [
        `/unsubscribe/?token=${unsubscribe}&preferences=${preferences}`,
        titled('You are unsubscribed'),
      ],
      [`/web/?token=${token({ p: 'web', s: '', c: campaign })}`, titled('Every route')],
      ['/embed/?list=newsletter', titled('The newsletter')],
      ['/login/', titled('Sign in')],
      ['/auth/callback/', titled('We could not sign you in')],
      ['/subscribe/check-inbox/', titled(/./)],
      ['/subscribe/thanks/', titled(/./)],
      ['/subscribe/error/', titled(/./)],
      ['/subscribe/invalid/', titled(/./)],
      ['/subscribe/no-list/', titled(/./)],
      ['/subscribe/too-many/', titled(/./)],
      ['/no-such-page/', titled('Page not found')],
    ]);
  } finally {
    await sql(`delete from public.campaigns where id = $1`, [campaign]);
    await sql(`delete from public.subscribers where id = $1`, [s]);
  }
});

test('no layout shift while any admin page loads, as the owner with data', async ({ page }) => {
  test.setTimeout(90_000);
  const run = randomUUID().slice(0, 8);
  const campaign = await sentCampaign(run);
  const { rows } = await sql(
    `select (select id from public.subscribers where email = 'ada@example.com') as ada,
            (select id from public.lists where slug = 'newsletter') as newsletter`,
  );
  const { ada, newsletter } = rows[0] as { ada: string; newsletter: string };
  const [draft] = await insertRows<{ id: string }>('campaigns', [
    { name: `Draft ${run}`, subject: `Draft ${run}`, body_md: '# Draft\n\nStill being written.' },
  ]);
  const tagName = `Steady ${run}`;
  const [tag] = await insertRows<{ id: string }>('tags', [{ name: tagName }]);
  await insertRows('subscriber_tags', [{ subscriber_id: ada, tag_id: tag!.id }]);
  const segmentName = `Everyone ${run}`;
  const [segment] = await insertRows<{ id: string }>('segments', [
    {
      name: segmentName,
      rules: { match: 'all', rules: [{ field: 'email', op: 'contains', value: '@' }] },
    },
  ]);
  const [automation] = await insertRows<{ id: string }>('automations', [
    { name: `Welcome ${run}`, trigger_list_id: newsletter },
  ]);
  await insertRows(
    'automation_steps',
    [
      ['email', 'Welcome', null],
      ['wait', null, 3 * 86_400],
      ['email', 'Day three', null],
    ].map(([kind, subject, wait], position) => ({
      automation_id: automation!.id,
      position,
      kind,
      subject,
      body_md: subject ? `Hello from ${subject}.` : null,
      wait_seconds: wait,
    })),
  );
  const image = `${E2E_SUPABASE_URL}/storage/v1/object/media/uploads/${Date.now()}-steady-${run}.png`;
  const upload = await fetch(image, {
    method: 'POST',
    headers: { ...SERVICE, 'Content-Type': 'image/png' },
    body: await sharp({ create: { width: 640, height: 400, channels: 3, background: '#4f46e5' } })
      .png()
      .toBuffer(),
  });
  expect(upload.ok, await upload.text()).toBe(true);
  try {
    await recordShifts(page);
    await signInWithPassword(page, await createTeamUser('owner'), '/admin/');
    await measure(page, DESKTOP, [
      ['/admin/lists/', titled(/^All lists \(\d+\)$/, 2)],
      // The first row, whoever it is: earlier specs' subscribers can fill the first page.
      ['/admin/waitlists/', (p) => expect(p.getByTestId('waitlist-place').first()).toBeVisible()],
      ['/admin/subscribers/', (p) => expect(p.locator('tbody tr').first()).toBeVisible()],
      [`/admin/subscribers/view/?id=${ada}`, shows('ada@example.com')],
      ['/admin/subscribers/tags/', shows(tagName)],
      [
        '/admin/subscribers/segments/',
        (p) => expect(p.getByRole('link', { name: segmentName })).toBeVisible(),
      ],
      [
        `/admin/subscribers/segments/edit/?id=${segment!.id}`,
        (p) => expect(p.getByRole('textbox', { name: 'Name' })).toHaveValue(segmentName),
      ],
      ['/admin/campaigns/', shows(`Draft ${run}`)],
      [
        `/admin/campaigns/edit/?id=${draft!.id}`,
        (p) => expect(p.getByTestId('recipient-count')).toHaveText(/recipients/),
      ],
      [`/admin/campaigns/report/?id=${campaign}`, titled('Every route', 2)],
      ['/admin/campaigns/templates/', shows('Plain newsletter')],
      ['/admin/automations/', shows(`Welcome ${run}`)],
      [
        `/admin/automations/edit/?id=${automation!.id}`,
        (p) => expect(p.getByRole('list', { name: 'Steps' })).toContainText('Day three'),
      ],
      ['/admin/media/', titled(/^Images \([1-9]\d*\)$/, 2)],
      ['/admin/settings/emails/', shows('Subject:')],
      ['/admin/share/', (p) => expect(p.getByRole('img', { name: /^QR code/ })).toBeVisible()],
    ]);
  } finally {
    await sql(`delete from public.campaigns where id in ($1, $2)`, [campaign, draft!.id]);
    await sql(`delete from public.segments where id = $1`, [segment!.id]);
    await sql(`delete from public.tags where id = $1`, [tag!.id]);
    await sql(`delete from public.automations where id = $1`, [automation!.id]);
    await fetch(image, { method: 'DELETE', headers: SERVICE });
  }
});
