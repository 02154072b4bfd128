// Feeds, sitemap and issue pages as the static export serves them (issue 22), read with JavaScript
// off so only the exported HTML counts: the archive links its RSS and Atom feeds, both resolve and
// parse, sitemap.xml and robots.txt are served, and every issue the build pre-rendered has its own
// <title> and og:title, and its body (the LCP element) before any script runs.
import { expect, test } from '@playwright/test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' });

test('the archive links feeds that parse; the sitemap and issue pages are in the export', async ({
  browser,
  request,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/archive/');
  const alternates = await page
    .locator('head link[rel="alternate"]')
    .evaluateAll((links) => links.map((l) => [l.getAttribute('type'), l.getAttribute('href')]));
  expect(alternates).toEqual([
    ['application/rss+xml', '/feed.xml'],
    ['application/atom+xml', '/atom.xml'],
  ]);

  const rss = await request.get('/feed.xml');
  expect(rss.status()).toBe(200);
  const rssText = await rss.text();
  expect(XMLValidator.validate(rssText)).toBe(true);
  expect(parser.parse(rssText).rss['@version']).toBe('2.0');
  const atom = await request.get('/atom.xml');
  expect(atom.status()).toBe(200);
  const atomText = await atom.text();
  expect(XMLValidator.validate(atomText)).toBe(true);
  expect(parser.parse(atomText).feed['@xmlns']).toBe('http://www.w3.org/2005/Atom');

  const sitemap = await request.get('/sitemap.xml');
  expect(sitemap.status()).toBe(200);
  const locs = [new XMLParser().parse(await sitemap.text()).urlset.url]
    .flat()
    .map((u: { loc: string }) => new URL(u.loc).pathname);
  expect(locs).toEqual(expect.arrayContaining(['/', '/archive/']));
  expect(await (await request.get('/robots.txt')).text()).toMatch(/^Sitemap: .*\/sitemap\.xml$/m);

  // Every issue of the build: its own page with its own title and card in the static HTML, and
  // in the feed and sitemap under that address.
  const built = (await (await request.get('/archive/prerendered.json')).json()) as {
    slugs: string[];
  };
  expect(Array.isArray(built.slugs)).toBe(true);
  for (const slug of built.slugs) {
    await page.goto(`/archive/${slug}/`);
    const ogTitle = await page.locator('meta[property="og:title"]').getAttribute('content');
    expect(ogTitle).toBeTruthy();
    await expect(page).toHaveTitle(
      new RegExp(`^${ogTitle!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
    await expect(page.locator('h1')).toHaveText(ogTitle!);
    expect(locs).toContain(`/archive/${slug}/`);
  }
  await context.close();
});

test('a pre-rendered issue has its body in the exported HTML, and hydration leaves it as it is', async ({
  browser,
  page,
  request,
}) => {
  // The seed publishes a sample issue (supabase/seed.sql), so every fresh build has this page.
  const built = (await (await request.get('/archive/prerendered.json')).json()) as {
    slugs: string[];
  };
  expect(built.slugs).toContain('welcome');
  const path = '/archive/welcome/';

  const context = await browser.newContext({ javaScriptEnabled: false });
  const exported = await context.newPage();
  await exported.goto(path);
  await expect(
    exported.getByRole('heading', { level: 2, name: 'What an issue looks like' }),
  ).toBeVisible();
  await expect(exported.getByRole('listitem').first()).toHaveText(/^Write in Markdown/);
  const before = await exported.locator('article').innerHTML();
  await context.close();

  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  // The browser read the issue again and rendered the same elements: no mismatch, nothing moved.
  expect(await page.locator('article').innerHTML()).toBe(before);
  expect(errors).toEqual([]);
});
