// The team journey in Chromium against the e2e emulator: the owner invites an editor through
// invite-member, the editor accepts the emailed invite and signs in, finds the settings read-only,
// and a direct supabase-js update from their page changes nothing; the owner then changes the
// role and removes them.
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';
import { PUBLISHABLE_KEY, SERVICE_ROLE_KEY } from '../../emulator/keys';
import { E2E_SUPABASE_URL } from './ports';
import { createTeamUser, signInWithPassword, uniqueEmail, waitForAuthLink } from './team';
import { expectNoAxeViolations, screenshotsAtBothWidths } from './page-checks';

const UMD_BUNDLE = fileURLToPath(
  new URL('../../node_modules/@supabase/supabase-js/dist/umd/supabase.js', import.meta.url),
);

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
  test.setTimeout(90_000);
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
  // Until they first sign in, they show as invited, with resend and revoke instead of remove.
  await expect(row.getByText('Invited', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: `Resend the invite to ${email}` })).toBeVisible();
  await expect(row.getByRole('button', { name: `Remove ${email}` })).toHaveCount(0);

  // The function's 409 (already on the team) appears at the email field.
  await invite.getByLabel('Invite by email').fill(email);
  await invite.getByRole('button', { name: 'Send invite' }).click();
  await expect(invite.getByText('That person is already on the team.')).toBeVisible();
  await expectNoAxeViolations(page, 'team with invite error');
  await screenshotsAtBothWidths(page, 'settings-team');

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
  await expectNoAxeViolations(editor, 'editor settings');
  await screenshotsAtBothWidths(editor, 'settings-editor');

  // Signed in now: the owner's list shows the joining day and Remove, no longer Invited.
  await page.reload();
  await expect(row.getByText('Invited', { exact: true })).toHaveCount(0);
  await expect(row.getByRole('button', { name: `Remove ${email}` })).toBeVisible();

  // The owner makes them a viewer, then removes them; the editor's next visit finds no access.
  await row.getByRole('combobox', { name: `Role of ${email}` }).selectOption('viewer');
  await expect(row.getByRole('combobox', { name: `Role of ${email}` })).toHaveValue('viewer');
  await row.getByRole('button', { name: `Remove ${email}` }).click();
  const confirm = page.getByRole('dialog', { name: `Remove ${email}?` });
  await expectNoAxeViolations(page, 'remove confirmation');
  await confirm.getByRole('button', { name: 'Remove from team' }).click();
  await expect(page.getByRole('row', { name: new RegExp(email) })).toHaveCount(0);
  await editor.goto('/admin/settings/');
  await expect(editor.getByRole('heading', { name: 'No access' })).toBeVisible();
  await editorContext.close();
});

test('the owner resends and revokes an open invite; the revoked link signs nobody in', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const owner = await createTeamUser('owner');
  const email = uniqueEmail('invitee');
  await signInWithPassword(page, owner, '/admin/settings/');
  const invite = page.getByRole('form', { name: 'Invite a member' });
  await invite.getByLabel('Invite by email').fill(email);
  await invite.getByLabel('Role').selectOption('viewer');
  await invite.getByRole('button', { name: 'Send invite' }).click();
  const row = page.getByRole('row', { name: new RegExp(email) });
  await expect(row.getByText('Invited', { exact: true })).toBeVisible();
  const link = await waitForAuthLink(email, 1);

  await row.getByRole('button', { name: `Resend the invite to ${email}` }).click();
  await expect(page.getByText(`The invite was sent to ${email} again.`)).toBeVisible();
  await waitForAuthLink(email, 2);
  await screenshotsAtBothWidths(page, 'settings-team-invited');

  await row.getByRole('button', { name: `Revoke the invite to ${email}` }).click();
  const dialog = page.getByRole('dialog', { name: `Revoke the invite to ${email}?` });
  await expectNoAxeViolations(page, 'revoke confirmation');
  await dialog.getByRole('button', { name: 'Revoke invite' }).click();
  await expect(page.getByText(`The invite to ${email} was revoked.`)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(email) })).toHaveCount(0);

  // The first invite's link no longer opens the admin.
  const other = await browser.newContext();
  const invitee = await other.newPage();
  await invitee.goto(link);
  await expect(invitee).not.toHaveURL(/\/admin\/$/);
  await other.close();
});
