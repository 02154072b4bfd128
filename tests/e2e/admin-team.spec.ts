// The team journey in Chromium against the e2e emulator: the owner invites an editor through
// invite-member, the editor accepts the emailed invite and signs in, finds the settings read-only,
// and a direct supabase-js update from their page changes nothing; the owner then changes the
// role and removes them.
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';
import { PUBLISHABLE_KEY, SERVICE_ROLE_KEY } from '../../emulator/keys';
import { E2E_SUPABASE_URL } from './ports';
import { createTeamUser, signInWithPassword, uniqueEmail, waitForAuthLink } from './team';

const UMD_BUNDLE = fileURLToPath(
  new URL('../../node_modules/@supabase/supabase-js/dist/umd/supabase.js', import.meta.url),
);

async function expectNoViolations(page: Page, state: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    violations.map(
      (v) => `${state}: ${v.id} ${v.help} — ${v.nodes.map((n) => n.target).join(', ')}`,
    ),
  ).toEqual([]);
}

async function screenshots(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // The page must not scroll sideways; the list names what reaches past the edge if it does.
    const { overflow, wide } = await page.evaluate(() => ({
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      wide: [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
        .filter((el) => !el.closest('[role=region], nav, dialog'))
        .map((el) => `${el.tagName.toLowerCase()}.${String(el.className)}`)
        .slice(0, 5),
    }));
    expect(overflow, `${name} at ${width}px: ${wide.join(', ')}`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/admin-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function siteName(): Promise<string> {
  const response = await fetch(`${E2E_SUPABASE_URL}/rest/v1/settings?id=eq.true&select=site_name`, {
    headers: { apikey: SERVICE_ROLE_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
  });
  return ((await response.json()) as Array<{ site_name: string }>)[0]!.site_name;
}

/**
 * Runs supabase-js in the signed-in page with the session the site stored, as someone poking at the
 * API from the browser console would, and tries to rename the site.
 */
async function renameFromThePage(page: Page): Promise<{ rows: number; error: string | null }> {
  await page.addScriptTag({ path: UMD_BUNDLE });
  return page.evaluate(
    async ({ url, key }) => {
      const stored = Object.keys(localStorage).find((k) => /^sb-.*-auth-token$/.test(k));
      const session = stored ? JSON.parse(localStorage.getItem(stored) ?? '{}') : {};
      const w = window as unknown as {
        supabase: { createClient: (u: string, k: string, o: object) => SupabaseClient };
      };
      const sb = w.supabase.createClient(url, key, {
        auth: { persistSession: false, autoRefreshToken: false },
        global: { headers: { Authorization: `Bearer ${session.access_token}` } },
      });
      const { data, error } = await sb
        .from('settings')
        .update({ site_name: 'Taken over' })
        .eq('id', true)
        .select();
      return { rows: data?.length ?? 0, error: error ? error.message : null };
    },
    { url: E2E_SUPABASE_URL, key: PUBLISHABLE_KEY },
  );
}

test('the owner invites an editor, who signs in from the email and cannot change settings', async ({
  page,
  browser,
}) => {
  const owner = await createTeamUser('owner');
  const email = uniqueEmail('editor');
  await signInWithPassword(page, owner, '/admin/settings/');

  const invite = page.getByRole('form', { name: 'Invite a member' });
  await invite.getByLabel('Invite by email').fill('nobody@');
  await invite.getByRole('button', { name: 'Send invite' }).click();
  await expect(invite.getByText('Enter a valid email address.')).toBeVisible();
  await invite.getByLabel('Invite by email').fill(email);
  await invite.getByLabel('Role').selectOption('editor');
  await invite.getByRole('button', { name: 'Send invite' }).click();
  await expect(invite.getByText(`${email} was invited as Editor.`)).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(email) });
  await expect(row.getByRole('combobox', { name: `Role of ${email}` })).toHaveValue('editor');
  await expect(row).toContainText(owner.email);

  // The function's 409 (already on the team) appears at the email field.
  await invite.getByLabel('Invite by email').fill(email);
  await invite.getByRole('button', { name: 'Send invite' }).click();
  await expect(invite.getByText('That person is already on the team.')).toBeVisible();
  await expectNoViolations(page, 'team with invite error');
  await screenshots(page, 'settings-team');

  // The editor, in a browser of their own, opens the invite from MailDev.
  const editorContext = await browser.newContext();
  const editor = await editorContext.newPage();
  await editor.goto(await waitForAuthLink(email, 1));
  await expect(editor).toHaveURL(/\/admin\//);
  await editor.goto('/admin/settings/');
  await expect(editor.getByText('Only the owner can change these settings.')).toBeVisible();
  await expect(editor.getByRole('button', { name: 'Save settings' })).toHaveCount(0);
  await expect(editor.getByLabel('Site name')).toHaveAttribute('readonly', '');
  await expect(editor.getByRole('form', { name: 'Invite a member' })).toHaveCount(0);
  const before = await siteName();
  expect(await renameFromThePage(editor)).toEqual({ rows: 0, error: null });
  expect(await siteName()).toBe(before);
  await expectNoViolations(editor, 'editor settings');
  await screenshots(editor, 'settings-editor');

  // The owner makes them a viewer, then removes them; the editor's next visit finds no access.
  await row.getByRole('combobox', { name: `Role of ${email}` }).selectOption('viewer');
  await expect(row.getByRole('combobox', { name: `Role of ${email}` })).toHaveValue('viewer');
  await row.getByRole('button', { name: `Remove ${email}` }).click();
  const confirm = page.getByRole('dialog', { name: `Remove ${email}?` });
  await expectNoViolations(page, 'remove confirmation');
  await confirm.getByRole('button', { name: 'Remove from team' }).click();
  await expect(page.getByRole('row', { name: new RegExp(email) })).toHaveCount(0);
  await editor.goto('/admin/settings/');
  await expect(editor.getByRole('heading', { name: 'No access' })).toBeVisible();
  await editorContext.close();
});
