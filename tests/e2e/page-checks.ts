// Checks every page spec runs: axe (WCAG 2.1 A/AA) on the page as it is, and full-page screenshots
// at desktop and phone width that fail when anything sticks out sideways.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** No axe violations of WCAG 2.1 A/AA in the page's current state (`state` names it in failures). */
export async function expectNoAxeViolations(
  page: Page,
  state: string,
  options: { exclude?: string[] } = {},
): Promise<void> {
  await transitionsSettled(page);
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  expect(
    violations.map(
      (v) => `${state}: ${v.id} ${v.help} — ${v.nodes.map((n) => n.target).join(', ')}`,
    ),
  ).toEqual([]);
}

/**
 * Waits for colour transitions to end (e.g. just after switching to dark mode): axe reads computed
 * colours, and a button caught half-way between its light and dark colours fails contrast.
 */
async function transitionsSettled(page: Page): Promise<void> {
  // Two frames, so a style change made just before has started its transitions.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
    undefined,
    { timeout: 5_000 },
  );
}

/**
 * Full-page screenshots at 1280 and 390 px into test-results/<prefix>-<name>-<width>.png; the page
 * must not scroll sideways at either width (the failure lists what reaches past the edge).
 */
export async function screenshotsAtBothWidths(
  page: Page,
  name: string,
  prefix = 'admin',
): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const { overflow, wide } = await page.evaluate(() => ({
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      wide: [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
        .filter((el) => !el.closest('[role=region], nav, dialog'))
        .map((el) => `${el.tagName.toLowerCase()}.${String(el.className)}`)
        .slice(0, 5),
    }));
    expect(overflow, `${name} at ${width}px: ${wide.join(', ')}`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/${prefix}-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
