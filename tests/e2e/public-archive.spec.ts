// The public archive in Chromium against the e2e emulator: campaigns arranged by the service role as
// the send functions leave them, bodies rendered by the real campaign renderer; hostile Markdown and
// a hand-written hostile body_html run nothing; drafts and unarchived issues stay out; keyset paging
// both ways, the home page's latest issues, not-found, empty and error states, axe and screenshots.
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { renderCampaignPreviewHtml } from '../../lib/campaign-preview';
import { SECRET_KEY, sql } from './browser-client';
import { expectNoAxeViolations, screenshotsAtBothWidths } from './page-checks';
import { E2E_SUPABASE_URL } from './ports';

interface Fixture {
  id: string;
  slug: string;
  subject: string;
}

/** A campaign as send-campaign and process-queue leave it: draft → sending → sent (or a draft). */
async function campaign(options: {
  subject: string;
  preheader?: string;
  bodyMd?: string;
  bodyHtml?: string;
  archive?: boolean;
  status?: 'draft' | 'sent';
  finishedAt?: string;
}): Promise<Fixture> {
  const slug = `e2e-${randomUUID().slice(0, 12)}`;
  const bodyMd = options.bodyMd ?? `Hello from **${options.subject}**.`;
  const { rows } = await sql(
    `insert into public.campaigns (name, subject, preheader, body_md, body_html, archive, slug)
     values ($1, $1, $2, $3, $4, $5, $6) returning id`,
    [
      options.subject,
      options.preheader ?? '',
      bodyMd,
      options.bodyHtml ?? renderCampaignPreviewHtml(bodyMd),
      options.archive ?? true,
      slug,
    ],
  );
  const id = (rows[0] as { id: string }).id;
  if ((options.status ?? 'sent') === 'sent') {
    await sql(`update public.campaigns set status = 'sending' where id = $1`, [id]);
    await sql(`update public.campaigns set status = 'sent' where id = $1`, [id]);
    if (options.finishedAt) {
      await sql(`update public.campaigns set finished_at = $2 where id = $1`, [
        id,
        options.finishedAt,
      ]);
    }
  }
  return { id, slug, subject: options.subject };
}

async function remove(fixtures: Fixture[]): Promise<void> {
  await sql(`delete from public.campaigns where id = any($1::uuid[])`, [fixtures.map((f) => f.id)]);
}

/** Everything that would show that a script ran: page errors, dialogs and the window flag. */
function watchForScripts(page: Page): string[] {
  const ran: string[] = [];
  page.on('dialog', (dialog) => {
    ran.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('pageerror', (err) => ran.push(`pageerror: ${err.message}`));
  return ran;
}

const pwned = (page: Page) => page.evaluate(() => (window as { pwned?: unknown }).pwned ?? null);

/** A 960×400 PNG in the public media bucket, as the editor's image picker uploads one. */
async function uploadImage(): Promise<string> {
  const path = `e2e-archive/${randomUUID().slice(0, 8)}.png`;
  const png = await sharp({
    create: { width: 960, height: 400, channels: 3, background: '#4f46e5' },
  })
    .png()
    .toBuffer();
  const put = await fetch(`${E2E_SUPABASE_URL}/storage/v1/object/media/${path}`, {
    method: 'POST',
    headers: {
      apikey: SECRET_KEY,
      Authorization: `Bearer ${SECRET_KEY}`,
      'Content-Type': 'image/png',
    },
    body: png,
  });
  expect(put.status).toBe(200);
  return `${E2E_SUPABASE_URL}/storage/v1/object/public/media/${path}`;
}

const HOSTILE_MARKDOWN = (image: string) => `# Launch notes

We shipped **three things** this week. Read [the changelog](https://example.com/changelog).

![A chart of signups](${image})

<script>window.pwned = 'script'; alert('script')</script>

<img src="https://127.0.0.1:1/missing.png" onerror="window.pwned = 'onerror'; alert('onerror')">

[Click me](javascript:window.pwned='markdown-link') and <a href="javascript:alert('html-link')">me too</a>.

> Quoted wisdom that goes on for a while so the block wraps on a phone.

\`\`\`ts
const archive = await supabase.rpc('archive_issues', { p_limit: 20 }); // a long line that scrolls sideways
\`\`\`

| Metric | This week | Last week | Change over the period |
| --- | ---: | ---: | --- |
| Signups | 1,204 | 980 | +22.9 % compared with the previous seven days |
| Opens | 61 % | 58 % | +3 points |
`;

test.describe('public archive', () => {
  test('an archived issue renders its Markdown and nothing in it runs; drafts and unarchived issues stay out', async ({
    page,
  }) => {
    const ran = watchForScripts(page);
    const tag = randomUUID().slice(0, 6);
    const image = await uploadImage();
    const issue = await campaign({
      subject: `Launch notes ${tag}`,
      preheader: 'Three things shipped, and what comes next.',
      bodyMd: HOSTILE_MARKDOWN(image),
    });
    const unarchived = await campaign({ subject: `Members only ${tag}`, archive: false });
    const draft = await campaign({ subject: `Draft ${tag}`, status: 'draft' });

    await page.goto('/archive/');
    const item = page.getByRole('listitem').filter({ hasText: issue.subject });
    await expect(item.getByRole('link', { name: issue.subject })).toBeVisible();
    await expect(item.getByText('Three things shipped, and what comes next.')).toBeVisible();
    await expect(page.getByText(unarchived.subject)).toHaveCount(0);
    await expect(page.getByText(draft.subject)).toHaveCount(0);

    await item.getByRole('link', { name: issue.subject }).click();
    await expect(page).toHaveURL(`/archive/issue/?slug=${issue.slug}`);
    await expect(page.getByRole('heading', { level: 1, name: issue.subject })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(`^${issue.subject} · `));
    const article = page.getByRole('article');
    // The body's h1 sits under the page's own: one level down.
    await expect(article.getByRole('heading', { level: 2, name: 'Launch notes' })).toBeVisible();
    await expect(article.getByRole('link', { name: 'the changelog' })).toHaveAttribute(
      'href',
      'https://example.com/changelog',
    );
    const chart = article.getByRole('img', { name: 'A chart of signups' });
    await expect(chart).toBeVisible();
    await expect.poll(() => chart.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(960);
    await expect(article.getByRole('table')).toBeVisible();
    await expect(article.locator('pre code')).toContainText('archive_issues');

    // The hostile parts: gone, and the links that were javascript: lead nowhere when clicked.
    await expect(article.locator('script, iframe, svg:not(.lucide)')).toHaveCount(0);
    expect(
      await article.evaluate((root) =>
        [...root.querySelectorAll('*')].flatMap((el) =>
          [...el.attributes].map((a) => a.name).filter((n) => n.startsWith('on')),
        ),
      ),
    ).toEqual([]);
    for (const name of ['Click me', 'me too']) {
      const link = article.getByText(name, { exact: true });
      await expect(link).not.toHaveAttribute('href', /javascript:/i);
      await link.click();
    }
    await expect(page).toHaveURL(`/archive/issue/?slug=${issue.slug}`);
    expect(await pwned(page)).toBeNull();
    expect(ran).toEqual([]);

    await expect(article.getByRole('link', { name: 'All issues' })).toHaveAttribute(
      'href',
      '/archive/',
    );
    await expect(
      page.getByRole('complementary').getByRole('link', { name: 'Subscribe' }),
    ).toHaveAttribute('href', '/');
    await expectNoAxeViolations(page, 'issue (light)');
    await screenshotsAtBothWidths(page, 'issue', 'archive');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page, 'issue (dark)');
    await screenshotsAtBothWidths(page, 'issue-dark', 'archive');
    await page.emulateMedia({ colorScheme: 'light' });

    // Not archived and draft: the same "not found" as an unknown slug.
    for (const slug of [unarchived.slug, draft.slug, `missing-${tag}`]) {
      await page.goto(`/archive/issue/?slug=${slug}`);
      await expect(
        page.getByRole('heading', { name: 'We could not find that issue' }),
      ).toBeVisible();
    }
    await expect(page.getByRole('link', { name: 'Browse the archive' })).toHaveAttribute(
      'href',
      '/archive/',
    );
    await expectNoAxeViolations(page, 'issue not found');
    await screenshotsAtBothWidths(page, 'not-found', 'archive');
    await page.goto('/archive/issue/');
    await expect(page.getByRole('heading', { name: 'We could not find that issue' })).toBeVisible();
    await remove([issue, unarchived, draft]);
  });

  test('a body_html written by hand with scripts and handlers still runs nothing', async ({
    page,
  }) => {
    const ran = watchForScripts(page);
    // What a compromised or hand-edited column could hold; the renderer would never write it.
    const issue = await campaign({
      subject: `Hand-written ${randomUUID().slice(0, 6)}`,
      bodyHtml: `<p>Plain words.</p>
        <script>window.pwned = 'script'</script>
        <img src="x" onerror="window.pwned = 'onerror'" alt="broken">
        <p><a id="js" href=" javascript:window.pwned='href'">A javascript link</a>
        <a href="https://example.com/" onclick="window.pwned='onclick'; return false">A safe link</a></p>
        <svg><script>window.pwned='svg'</script><circle onload="window.pwned='svg-onload'"/></svg>
        <iframe srcdoc="<script>parent.pwned='iframe'</script>"></iframe>
        <details open ontoggle="window.pwned='ontoggle'"><summary>More</summary>Inside</details>
        <style>body { display: none }</style>
        <form action="javascript:window.pwned='form'"><button>Send</button></form>`,
    });
    await page.goto(`/archive/issue/?slug=${issue.slug}`);
    const article = page.getByRole('article');
    await expect(article.getByText('Plain words.')).toBeVisible();
    // Unknown tags keep only their text; links keep only safe URLs; no handler survives.
    await expect(article.getByText('Inside')).toBeVisible();
    await expect(
      article.locator('script, iframe, style, form, details, button, svg:not(.lucide)'),
    ).toHaveCount(0);
    await expect(article.getByText('A javascript link')).not.toHaveAttribute('href', /.+/);
    await expect(article.getByRole('link', { name: 'A safe link' })).toHaveAttribute(
      'href',
      'https://example.com/',
    );
    expect(
      await article.evaluate((root) =>
        [...root.querySelectorAll('*')].flatMap((el) =>
          [...el.attributes].map((a) => a.name).filter((n) => n.startsWith('on')),
        ),
      ),
    ).toEqual([]);
    await article.getByText('A javascript link').click();
    await page.waitForTimeout(300); // an image error or toggle event would have fired by now
    expect(await pwned(page)).toBeNull();
    expect(ran).toEqual([]);
    await expect(page.locator('body')).toBeVisible();
    await remove([issue]);
  });

  test('pages by keyset, newest first, and the home page shows the three latest', async ({
    page,
  }) => {
    // 23 issues dated in 2099, so they are the newest whatever other specs archived; removed after.
    const tag = randomUUID().slice(0, 6);
    const { rows } = await sql(
      `with made as (
         insert into public.campaigns (name, subject, preheader, body_md, body_html, archive, slug)
         select 'Paging ' || i, 'Paging ' || $1 || ' #' || i, 'Summary of issue ' || i, 'Body',
                '<p>Body</p>', true, 'paging-' || $1 || '-' || i
         from generate_series(1, 23) i
         returning id, slug
       ) select id, slug from made`,
      [tag],
    );
    const ids = (rows as { id: string }[]).map((r) => r.id);
    const fixtures = (rows as { id: string; slug: string }[]).map((r) => ({ ...r, subject: '' }));
    try {
      await sql(`update public.campaigns set status = 'sending' where id = any($1::uuid[])`, [ids]);
      await sql(`update public.campaigns set status = 'sent' where id = any($1::uuid[])`, [ids]);
      await sql(
        `update public.campaigns
         set finished_at = '2099-01-01T00:00:00Z'::timestamptz
                           + (split_part(slug, '-', 3)::int * interval '1 day')
         where id = any($1::uuid[])`,
        [ids],
      );
      const subject = (i: number) => `Paging ${tag} #${i}`;
      const titles = page.getByRole('list', { name: 'Issues' }).getByRole('heading', { level: 2 });

      await page.goto('/archive/');
      await expect(titles).toHaveCount(20);
      const first = Array.from({ length: 20 }, (_, k) => subject(23 - k));
      await expect(titles).toHaveText(first);
      await expect(page.getByText('Summary of issue 23')).toBeVisible();
      await expect(page.locator('time').first()).toHaveText('January 24, 2099');
      const pager = page.getByRole('navigation', { name: 'Archive pages' });
      await expect(pager.getByRole('link', { name: 'Newer issues' })).toHaveCount(0);
      await expectNoAxeViolations(page, 'archive');
      await screenshotsAtBothWidths(page, 'list', 'archive');

      await pager.getByRole('link', { name: 'Older issues' }).click();
      await expect(page).toHaveURL(/\/archive\/\?before=/);
      await expect(titles.nth(0)).toHaveText(subject(3));
      await expect(titles.nth(2)).toHaveText(subject(1));
      await expect(page.getByRole('heading', { level: 1, name: 'Archive' })).toBeFocused();

      await pager.getByRole('link', { name: 'Newer issues' }).click();
      await expect(page).toHaveURL(/\/archive\/\?after=/);
      await expect(titles).toHaveText(first);
      await expect(pager.getByRole('link', { name: 'Newer issues' })).toHaveCount(0);
      await page.goBack();
      await expect(titles.nth(0)).toHaveText(subject(3));

      // Home: the three newest, linking to their issues, and a link to the whole archive.
      await page.goto('/');
      const latest = page.getByRole('region', { name: 'Latest issues' });
      await expect(latest.getByRole('heading', { level: 3 })).toHaveText([
        subject(23),
        subject(22),
        subject(21),
      ]);
      await expect(latest.getByRole('link', { name: subject(23) })).toHaveAttribute(
        'href',
        `/archive/issue/?slug=paging-${tag}-23`,
      );
      await expectNoAxeViolations(page, 'home with latest issues');
      await screenshotsAtBothWidths(page, 'home-latest', 'archive');
      await latest.getByRole('link', { name: 'All issues' }).click();
      await expect(page).toHaveURL('/archive/');
      await page.goto('/');
      await latest.getByRole('link', { name: subject(22) }).click();
      await expect(page.getByRole('heading', { level: 1, name: subject(22) })).toBeVisible();
    } finally {
      await remove(fixtures);
    }
  });

  test('empty and failed archives say so; the home page hides its empty section', async ({
    page,
  }) => {
    // The archive is shared by every spec: unpublish everything for a moment, then put it back.
    const { rows } = await sql(
      `update public.campaigns set archive = false where archive and status = 'sent' returning id`,
    );
    const ids = (rows as { id: string }[]).map((r) => r.id);
    try {
      await page.goto('/archive/');
      await expect(page.getByRole('heading', { name: 'No issues yet' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Subscribe for the first one' })).toHaveAttribute(
        'href',
        '/',
      );
      await expectNoAxeViolations(page, 'empty archive');
      await screenshotsAtBothWidths(page, 'empty', 'archive');
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Get the newsletter' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Latest issues' })).toHaveCount(0);
    } finally {
      await sql(`update public.campaigns set archive = true where id = any($1::uuid[])`, [ids]);
    }

    // The network fails: the error names itself, and "Try again" reads again once it is back.
    let failing = true;
    await page.route('**/rest/v1/rpc/archive_issues**', (route) =>
      failing ? route.abort('failed') : route.continue(),
    );
    await page.goto('/archive/');
    const retry = page.getByRole('button', { name: 'Try again' });
    await expect(
      page.getByRole('heading', { name: 'We could not load the archive' }),
    ).toBeVisible();
    await expectNoAxeViolations(page, 'archive error');
    await screenshotsAtBothWidths(page, 'error', 'archive');
    failing = false;
    // SWR also retries on its own after a few seconds; whichever comes first must load the page.
    await retry.click({ timeout: 2_000 }).catch(() => undefined);
    await expect(
      page
        .getByRole('heading', { level: 1, name: 'Archive' })
        .or(page.getByRole('heading', { name: 'No issues yet' })),
    ).toBeVisible();
  });
});
