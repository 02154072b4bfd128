// Failed loads show SPEC §8's catalogue messages, never what the server or the browser said: an
// HTML 502 page, "TypeError: Failed to fetch" or a database error behind a 500 must not reach the
// page, on the admin's data views and on the public archive.
import { expect, test, type Page, type Route } from '@playwright/test';
import { E2E_SUPABASE_URL } from './ports';
import { createTeamUser, signInWithPassword } from './team';

const UNREACHABLE = 'We could not reach the server. Check your connection and try again.';
const INTERNAL = 'Something went wrong. Nothing was changed.';
const RAW = /<html>|Bad Gateway|Failed to fetch|TypeError|statement timeout|Internal Server Error/;

type Mode = 'html502' | 'abort' | 'pgrst500';

/** Breaks data requests (not sign-in, the member check or the public settings) the given way. */
async function breakApi(page: Page, mode: Mode): Promise<void> {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.route(`${E2E_SUPABASE_URL}/**`, async (route: Route) => {
    const url = route.request().url();
    if (
      route.request().method() === 'OPTIONS' ||
      url.includes('/auth/v1/') ||
      url.includes('/realtime/') ||
      url.includes('rpc/public_settings') ||
      (url.includes('/rest/v1/members?') && url.includes('user_id=eq.'))
    ) {
      return route.continue();
    }
    const cors = { 'Access-Control-Allow-Origin': '*' };
    if (mode === 'abort') return route.abort('connectionrefused');
    if (mode === 'pgrst500') {
      return route.fulfill({
        status: 500,
        headers: { ...cors, 'Content-Type': 'application/json' },
        body: '{"code":"XX000","details":null,"hint":null,"message":"canceling statement due to statement timeout"}',
      });
    }
    return route.fulfill({
      status: 502,
      headers: { ...cors, 'Content-Type': 'text/html' },
      body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
    });
  });
}

const EXPECTED: Record<Mode, string> = {
  html502: INTERNAL,
  abort: UNREACHABLE,
  pgrst500: INTERNAL,
};

test('admin data views show catalogue messages when loads fail', async ({ page }) => {
  test.setTimeout(120_000);
  const owner = await createTeamUser('owner');
  await signInWithPassword(page, owner, '/admin/');
  for (const [path, failed] of [
    ['/admin/', 'The totals could not be loaded.'],
    ['/admin/lists/', 'The lists could not be loaded.'],
    ['/admin/media/', 'The images could not be loaded.'],
  ] as const) {
    for (const mode of ['html502', 'abort', 'pgrst500'] as const) {
      await breakApi(page, mode);
      await page.goto(path);
      const main = page.getByRole('main');
      await expect(main.getByText(failed)).toBeVisible({ timeout: 15_000 });
      await expect(main.getByText(EXPECTED[mode]).first()).toBeVisible();
      await expect(main).not.toContainText(RAW);
    }
  }
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('the public archive and an issue show catalogue messages when loads fail', async ({
  page,
}) => {
  test.setTimeout(60_000);
  for (const path of ['/archive/', '/archive/issue/?slug=no-such-issue']) {
    for (const mode of ['html502', 'abort'] as const) {
      await breakApi(page, mode);
      await page.goto(path);
      const main = page.getByRole('main');
      await expect(main.getByText(EXPECTED[mode])).toBeVisible({ timeout: 15_000 });
      await expect(main).not.toContainText(RAW);
      await expect(main.getByRole('button', { name: 'Try again' })).toBeVisible();
    }
  }
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});
