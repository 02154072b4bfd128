// Layout shift in Chromium (issue 22: CLS ≤ 0.02 on every route): a layout-shift PerformanceObserver
// installed before any script, read once the page has loaded its data and painted twice more.
import { expect, type Page } from '@playwright/test';

/** Issue 22's goal for every route. */
export const MAX_SHIFT = 0.02;

export interface Shift {
  value: number;
  sources: string[];
}

/** Records every layout shift not caused by input, from the first paint of every document on. */
export async function recordShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: Shift[] = [];
    (window as unknown as { __shifts: Shift[] }).__shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as Array<{
        value: number;
        hadRecentInput: boolean;
        sources?: Array<{ node?: Node | null }>;
      }>) {
        if (entry.hadRecentInput) continue;
        shifts.push({
          value: entry.value,
          sources: (entry.sources ?? []).map((source) => {
            const node = source.node as Element | null | undefined;
            return node ? `${node.nodeName}.${String(node.className ?? '')}` : '?';
          }),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The shifts so far, once the page has loaded its data and painted twice more. */
export async function shiftsOf(page: Page): Promise<{ total: number; shifts: Shift[] }> {
  await page.waitForLoadState('networkidle');
  const shifts = await page.evaluate(
    () =>
      new Promise<Shift[]>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() =>
            resolve((window as unknown as { __shifts: Shift[] }).__shifts),
          ),
        ),
      ),
  );
  return { total: shifts.reduce((sum, s) => sum + s.value, 0), shifts };
}

/**
 * Opens `path`, waits for `ready` (what the page shows once its data is in) and fails when the
 * shifts since navigation add up to more than MAX_SHIFT; `soft` lets one test report every route.
 */
export async function expectSteady(
  page: Page,
  path: string,
  ready: (page: Page) => Promise<void>,
  options: { soft?: boolean } = {},
): Promise<number> {
  await page.goto(path);
  await ready(page);
  const { total, shifts } = await shiftsOf(page);
  const check = options.soft ? expect.soft : expect;
  check(total, `${path} shifted: ${JSON.stringify(shifts)}`).toBeLessThanOrEqual(MAX_SHIFT);
  return total;
}
