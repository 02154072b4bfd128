// The admin navigation on a phone: the row scrolls sideways, so the current section is scrolled
// into view and a faded edge shows where more links are.
import { expect, test, type Locator } from '@playwright/test';
import { createTeamUser, signInWithPassword } from './team';

async function inside(link: Locator, nav: Locator): Promise<boolean> {
  const [l, n] = [await link.boundingBox(), await nav.boundingBox()];
  return Boolean(l && n && l.x >= n.x - 1 && l.x + l.width <= n.x + n.width + 1);
}

test('at 390 px the current section is in view and the row shows it scrolls', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const owner = await createTeamUser('owner');
  await signInWithPassword(page, owner, '/admin/');
  const nav = page.getByRole('navigation', { name: 'Admin' });
  await expect(nav).toHaveAttribute('data-more-end', 'true');
  await expect(nav).not.toHaveAttribute('data-more-start', /.*/);

  for (const section of ['Settings', 'Media', 'Campaigns']) {
    await page.goto(`/admin/${section.toLowerCase()}/`);
    const link = nav.getByRole('link', { name: section });
    await expect(link).toHaveAttribute('aria-current', 'page');
    await expect.poll(() => inside(link, nav), { message: `${section} in view` }).toBe(true);
    await expect(nav).toHaveAttribute('data-more-start', 'true');
  }
});

test('on a laptop and a tablet every section shows without scrolling the row', async ({ page }) => {
  const owner = await createTeamUser('owner');
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInWithPassword(page, owner, '/admin/settings/');
  const nav = page.getByRole('navigation', { name: 'Admin' });
  for (const width of [1280, 1024, 1600]) {
    await page.setViewportSize({ width, height: 800 });
    const links = nav.getByRole('link');
    await expect(links).toHaveCount(8);
    for (const link of await links.all()) {
      await expect
        .poll(() => inside(link, nav), { message: `${await link.textContent()} at ${width} px` })
        .toBe(true);
    }
    await expect(nav).not.toHaveAttribute('data-more-end', /.*/);
    await expect(nav).not.toHaveAttribute('data-more-start', /.*/);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: 'test-results/admin-nav-1280.png' });
});
