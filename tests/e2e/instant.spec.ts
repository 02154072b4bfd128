// Issue 22, "Instant": the exported HTML of the public pages carries the site's identity before any
// script runs, first-load JavaScript stays within budget (read from out/), and pages do not shift
// while their data loads (a layout-shift PerformanceObserver in Chromium, at desktop and phone width).
// Needs out/ built by `scripts/build-site.ts --emulator` (npm test does).
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  KNOWN_GAPS_KB,
  budgetProblems,
  firstLoadJs,
  overBudget,
} from '../../lib/build/first-load-js';
import { renderCampaignPreviewHtml } from '../../lib/campaign-preview';
import { sql } from './browser-client';
import { expectSteady, recordShifts } from './layout-shift-kit';
import { E2E_SUPABASE_URL } from './ports';
import { archiveAsBuilt } from './public-kit';
import { createTeamUser, signInWithPassword } from './team';

const SITE_NAME = 'The Postbox Letter'; // supabase/seed.sql, read by the build (scripts/build-site.ts)

test('the exported HTML of / names the site before any script runs; public JS within budget', async ({
  request,
}) => {
  const html = await (await request.get('/')).text();
  // The hero's heading and the signup form are in the file itself, as the build read them.
  expect(html).toMatch(new RegExp(`<h1[^>]*>${SITE_NAME}</h1>`));
  expect(html).toMatch(new RegExp(`<title[^>]*>${SITE_NAME}</title>`));
  expect(html).toMatch(/<input[^>]*type="email"/);
  // It connects to the API (another origin) while its scripts download (pages/_document.tsx).
  expect(html).toContain(
    `<link rel="preconnect" href="${E2E_SUPABASE_URL}" crossorigin="anonymous"`,
  );
  // Its critical CSS is inline and no stylesheet blocks the first paint (lib/build/critical-css.ts);
  // only the <noscript> fallback links them the blocking way.
  expect(html).toMatch(/<style>[^<]*\.Home_title__/);
  const stylesheets = html
    .replace(/<noscript>.*?<\/noscript>/gs, '')
    .match(/<link[^>]*stylesheet[^>]*>/g);
  expect(stylesheets?.length).toBeGreaterThan(0);
  for (const link of stylesheets!) expect(link).toContain('media="print"');
  for (const path of ['/embed/', '/unsubscribe/', '/subscribe/thanks/']) {
    expect(await (await request.get(path)).text(), path).toContain(SITE_NAME);
  }

  const pages = firstLoadJs('out');
  expect(pages.map((p) => p.route)).toEqual(expect.arrayContaining(['/', '/embed/', '/archive/']));
  // Issue 22's budgets (125/115/130 KB) hold for every public page, with no known gap left
  // (lib/build/first-load-js.ts); anything over is reported here.
  const over = overBudget(pages).map((p) => `${p.route} ${p.gzipBytes} B > ${p.budgetKb} KB`);
  test.info().annotations.push({ type: 'over issue 22 budget', description: over.join('; ') });
  expect(KNOWN_GAPS_KB).toEqual({});
  // The embed ships its own small script and no React (pages/embed/index.tsx).
  const embed = pages.find((p) => p.route === '/embed/')!;
  expect(embed.scripts).toEqual(['(inline script 1)']);
  expect(budgetProblems(pages)).toEqual([]);
});

test('every exported page has its content in place, without a script to reveal it', () => {
  // React's server renderer moves a large Suspense boundary's content into a hidden element that
  // an inline script ($RC) puts in place: nothing would show without JavaScript (the no-JS form,
  // the embed's message, a long issue). pages/_app.tsx hydrates in slices with Activity instead.
  const outlined = readdirSync('out', { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.html'))
    .filter((file) => /<div hidden id="S:|\$RC\b/.test(readFileSync(join('out', file), 'utf8')));
  expect(outlined).toEqual([]);
});

test('no layout shift while /, the public pages and an issue load', async ({ page }) => {
  test.setTimeout(90_000);
  const slug = `e2e-steady-${randomUUID().slice(0, 8)}`;
  const body = `# Steady\n\nAn issue that must not jump while it loads.\n\n${'Some text. '.repeat(80)}`;
  const { rows } = await sql(
    `insert into public.campaigns (name, subject, preheader, body_md, body_html, archive, slug)
     values ('Steady', 'Steady', 'No jumps', $1, $2, true, $3) returning id`,
    [body, renderCampaignPreviewHtml(body), slug],
  );
  const id = (rows[0] as { id: string }).id;
  await sql(`update public.campaigns set status = 'sending' where id = $1`, [id]);
  await sql(`update public.campaigns set status = 'sent' where id = $1`, [id]);
  try {
    await recordShifts(page);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width > 800 ? 720 : 844 });
      await expectSteady(page, '/', (p) => expect(p.getByText(/Join \d+ readers?/)).toBeVisible());
      await expectSteady(page, `/archive/issue/?slug=${slug}`, (p) =>
        expect(p.getByRole('heading', { name: 'Steady', level: 1 })).toBeVisible(),
      );
      // The other public pages (no data without a token) at desktop width only, to stay quick.
      const others =
        width > 800 ? ['/embed/', '/unsubscribe/', '/confirm/', '/waitlist/', '/web/'] : [];
      for (const path of others) {
        await expectSteady(page, path, (p) =>
          expect(p.locator('main, form').first()).toBeVisible(),
        );
      }
    }
  } finally {
    await sql(`delete from public.campaigns where id = $1`, [id]);
  }
  // /archive/ is pre-rendered with the newest issues: steady when nothing changed since the build
  // (an issue published since then is added above the others once read, which moves them).
  const { built, restore } = await archiveAsBuilt(page);
  try {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width > 800 ? 720 : 844 });
      await expectSteady(page, '/archive/', (p) =>
        expect(p.getByRole('link', { name: built[0]!.subject })).toBeVisible(),
      );
    }
  } finally {
    await restore();
  }
});

// The dashboard's tiles and chart keep their final size while loading (they pushed the chart down by
// 0.17 at 1280 px and 0.61 at 390 px before).
test('no layout shift while /admin/ and /admin/settings/ load, at desktop and phone width', async ({
  page,
}) => {
  await recordShifts(page);
  const owner = await createTeamUser('owner');
  await signInWithPassword(page, owner, '/admin/');
  for (const [width, height] of [
    [1280, 720],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expectSteady(page, '/admin/', (p) =>
      expect(p.getByRole('heading', { name: 'Signups, last 30 days' })).toBeVisible(),
    );
    await expectSteady(page, '/admin/settings/', (p) =>
      expect(p.getByRole('heading', { name: 'Team' })).toBeVisible(),
    );
  }
});
