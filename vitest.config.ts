// Unit tests (`x.test.ts` beside `x.ts`) and integration tests (`*.integration.test.ts`, each file
// starting its own in-memory emulator). Playwright specs under tests/e2e run separately.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'tests/e2e/**', 'out/**', '.next/**', 'supabase/functions/**'],
    pool: 'forks',
    // Two cores: each integration file owns a database, so keep the fan-out small.
    maxWorkers: 2,
    // Files run one after another in a worker's process and share its dependencies: importing
    // PGlite, supabase-js and the rest again for every file took about 40 % of the suite's time.
    // tests/vitest-setup.ts gives each file the worker's starting environment and fresh project
    // modules, and each file starts (and stops) its own emulator.
    isolate: false,
    setupFiles: ['tests/vitest-setup.ts'],
    testTimeout: 30_000,
    // One retry in CI only, as the Playwright suite has: CI machines are shared and a test that
    // passes on its second try is reported as flaky in the JSON report rather than hidden.
    retry: process.env.CI ? 1 : 0,
    hookTimeout: 120_000,
  },
});
