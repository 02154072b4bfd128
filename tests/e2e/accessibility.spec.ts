// Automated WCAG 2.1 A/AA checks (axe-core) of the exported pages, in both colour schemes and in
// every state of the signup form the visitor can reach today.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { formAlert } from './helpers';

async function expectNoViolations(page: Page, state: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const readable = violations.map(
    (v) => `${state}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target).join(', ')}`,
  );
  expect(readable).toEqual([]);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`accessibility (${colorScheme})`, () => {
    test.use({ colorScheme });

    test('home page: empty, invalid and failed submission', async ({ page }) => {
      await page.goto('/');
      await expectNoViolations(page, 'empty form');

      await page.getByLabel('Email address').fill('ada@example');
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await expect(page.getByText('Enter a valid email address.')).toBeVisible();
      await expectNoViolations(page, 'invalid email');

      await page.getByLabel('Email address').fill('ada@example.com');
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await expect(formAlert(page)).toBeVisible();
      await expectNoViolations(page, 'failed submission');
    });

    test('404 page', async ({ page }) => {
      await page.goto('/no-such-page/');
      await expectNoViolations(page, '404');
    });
  });
}
