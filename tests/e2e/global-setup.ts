// Playwright global setup: checks that out/ was built for the e2e emulator, then starts that emulator
// in memory on the fixed e2e ports; the returned function is Playwright's teardown and stops it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { startEmulator } from '../../emulator/index';
import {
  E2E_API_PORT,
  E2E_DB_PORT,
  E2E_MAIL_SMTP_PORT,
  E2E_MAIL_WEB_PORT,
  E2E_SITE_URL,
  E2E_SUPABASE_URL,
} from './ports';

function bundleMentions(dir: string, needle: string): boolean {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (
      entry.isDirectory()
        ? bundleMentions(path, needle)
        : readFileSync(path, 'utf8').includes(needle)
    ) {
      return true;
    }
  }
  return false;
}

function assertE2eBuild(root: string): void {
  const chunks = join(root, 'out', '_next', 'static');
  let ok = false;
  try {
    ok = bundleMentions(chunks, E2E_SUPABASE_URL);
  } catch {
    // no out/ at all: same advice
  }
  if (!ok) {
    throw new Error(
      `out/ is missing or was not built for the e2e emulator. Build it with:\n` +
        `  npx tsx scripts/build-site.ts --emulator   (the seed's identity in the HTML, as npm test)\n` +
        `or, without the build-time data some specs expect:\n` +
        `  NEXT_PUBLIC_SUPABASE_URL=${E2E_SUPABASE_URL} npx next build`,
    );
  }
}

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  // The repository root, wherever `playwright test` was started from.
  const root = config.configFile ? dirname(config.configFile) : config.rootDir;
  assertE2eBuild(root);
  // Links in the emails the functions send must lead to the exported site under test.
  process.env.POSTBOX_SITE_URL = E2E_SITE_URL;
  const emulator = await startEmulator({
    memory: true,
    projectDir: root,
    port: E2E_API_PORT,
    // Specs create fixtures (tables, policies, buckets) over SQL, as a migration would.
    dbPort: E2E_DB_PORT,
    mailWebPort: E2E_MAIL_WEB_PORT,
    mailSmtpPort: E2E_MAIL_SMTP_PORT,
    log: (message) => console.log(`[emulator] ${message}`),
  });
  if (emulator.url !== E2E_SUPABASE_URL) {
    await emulator.stop();
    throw new Error(`emulator listens on ${emulator.url}, expected ${E2E_SUPABASE_URL}`);
  }
  // Workers inherit the environment: PGlite's wire server, or the throw-away native database.
  if (emulator.dbUrl) process.env.E2E_DB_URL = emulator.dbUrl;
  return () => emulator.stop();
}
