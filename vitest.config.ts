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
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
