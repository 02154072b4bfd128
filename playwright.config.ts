// Playwright end-to-end suite: the exported site (`out/`) in Debian's Chromium against an in-memory emulator.
//
// The site must be built for this run first, so its bundle talks to the e2e emulator:
//   NEXT_PUBLIC_SUPABASE_URL=http://127.0.0.1:55321 npx next build && npx playwright test
// (`npm test` runs exactly that; global-setup.ts refuses a build made for another URL.)
import { defineConfig, devices } from '@playwright/test';
import { E2E_SITE_PORT, E2E_SITE_URL } from './tests/e2e/ports';

const CI = Boolean(process.env.CI);

export default defineConfig({
  testDir: 'tests/e2e',
  // Not the default `test-results/`: Playwright empties its output folder, and other reports live there.
  outputDir: 'test-results/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  forbidOnly: CI,
  retries: CI ? 1 : 0,
  workers: 1, // two cores shared with the emulator, the static server and other test runs
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: E2E_SITE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        // Playwright's own browser download is not available here; use the system Chromium.
        launchOptions: {
          executablePath: process.env.PLAYWRIGHT_CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
      },
    },
  ],
  webServer: {
    command: `npx tsx scripts/serve-static.ts --dir out --port ${E2E_SITE_PORT} --host 127.0.0.1`,
    url: E2E_SITE_URL,
    // A server left on the port could be serving another build: fail instead of reusing it.
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
