// The archive's newest page pre-rendered at build (issue 22): in the exported HTML with JavaScript
// off, kept node for node through hydration and the fresh read, and a hard load of ?before= still
// loads the page it names. Split from public-archive.spec.ts, whose fixtures it does not need.
import { expect, test } from '@playwright/test';
import { sql } from './browser-client';
import { archiveAsBuilt } from './public-kit';

test('the newest page is in the exported HTML, hydration keeps its very nodes, and ?before= still loads its page', async ({
  browser,
  page,
}) => {
  // The archive as the build read it (the seed's sample issue at least), so the browser's fresh
  // read must change nothing.
  const { built, restore } = await archiveAsBuilt(page);
  expect(built.map((r) => r.slug)).toContain('welcome');
  try {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const exported = await context.newPage();
    await exported.goto('/archive/');
    await expect(exported.getByRole('heading', { level: 1, name: 'Archive' })).toBeVisible();
    const list = exported.getByRole('list', { name: 'Issues' });
    await expect(list.getByRole('heading', { level: 2 })).toHaveText(
      built.slice(0, 20).map((r) => r.subject),
    );
    await expect(exported.getByText('Loading the archive…')).toHaveCount(0);
    const before = await exported.locator('main').innerHTML();
    const exportedText = await exported.locator('main').innerText();
    await context.close();

    // Every change to main's subtree after the parser built it: none during hydration, so no
    // node was re-created and nothing moved. The page's fresh read (and its read of the build's
    // pre-rendered slugs) is sent once hydration has committed (an effect); both are held until
    // that is checked, then let through.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as { mutations?: string[] }).mutations = seen;
      new MutationObserver((records) => {
        for (const r of records) {
          const target = r.target instanceof Element ? r.target : r.target.parentElement;
          if (target?.closest('main')) seen.push(`${r.type} in <${target.tagName}>`);
        }
      }).observe(document, {
        childList: true,
        subtree: true,
        characterData: true,
        attributes: true,
      });
      document.addEventListener('DOMContentLoaded', () => (seen.length = 0));
    });
    let hydrated!: () => void;
    const held = new Promise<void>((resolve) => (hydrated = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const reads = ['**/rest/v1/rpc/archive_issues', '**/archive/prerendered.json'];
    for (const url of reads) {
      await page.route(url, async (route) => {
        hydrated();
        await released;
        await route.continue();
      });
    }
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/archive/', { waitUntil: 'commit' });
    await held;
    expect(await page.evaluate(() => (window as { mutations?: string[] }).mutations)).toEqual([]);
    expect(await page.locator('main').innerHTML()).toBe(before);
    const read = page.waitForResponse('**/rest/v1/rpc/archive_issues');
    release();
    expect((await read).status()).toBe(200); // the browser read the archive again
    await page.waitForLoadState('networkidle');
    // The same issues: the page still reads as the build wrote it, and links the issues this
    // build pre-rendered at their pretty URLs now that it knows which.
    expect(await page.locator('main').innerText()).toBe(exportedText);
    await expect(
      page.getByRole('list', { name: 'Issues' }).getByRole('link', { name: built[0]!.subject }),
    ).toHaveAttribute('href', `/archive/${built[0]!.slug}/`);
    // …which the observer saw (it does see changes; the items too, here, since the ids of the
    // build's emulator are not this one's).
    expect(
      await page.evaluate(() => (window as { mutations?: string[] }).mutations!.length),
    ).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    for (const url of reads) await page.unroute(url);

    // A page older than the newest issue, loaded directly: read after hydration, as before.
    // (Its id here: the build's emulator had its own.)
    const newest = built[0]!;
    const { rows: ids } = await sql(`select id from public.campaigns where slug = $1`, [
      newest.slug,
    ]);
    const id = (ids[0] as { id: string }).id;
    await page.goto(`/archive/?before=${encodeURIComponent(`${newest.finished_at}~${id}`)}`);
    const titles = page.getByRole('list', { name: 'Issues' }).getByRole('heading', { level: 2 });
    if (built.length > 1) {
      await expect(titles.first()).toHaveText(built[1]!.subject);
      await expect(
        page.getByRole('navigation', { name: 'Archive pages' }).getByRole('link', {
          name: 'Newer issues',
        }),
      ).toBeVisible();
    } else {
      await expect(page.getByRole('heading', { name: 'No issues on this page' })).toBeVisible();
    }
    await expect(page.getByRole('link', { name: newest.subject })).toHaveCount(0);
  } finally {
    await restore();
  }
});
