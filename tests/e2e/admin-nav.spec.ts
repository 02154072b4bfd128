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
