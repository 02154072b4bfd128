// The static export with the project's public data in its HTML. `npm run build` (plain `next build`)
// reads NEXT_PUBLIC_SUPABASE_URL at build time and falls back when it is unreachable; this script is
// for builds that must contain data:
//   npx tsx scripts/build-site.ts --emulator   boots a fresh, seeded in-memory emulator on the e2e
//                                             ports, builds against it, stops it (npm test's build)
//   npx tsx scripts/build-site.ts --require    builds against NEXT_PUBLIC_SUPABASE_URL and fails when
//                                             it cannot be read (a CI deploy)
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { inlineCriticalCss } from '../lib/build/critical-css.js';
import { REQUIRE_DATA_ENV } from '../lib/build/fetch-public.js';
import { E2E_API_PORT, E2E_SUPABASE_URL } from '../tests/e2e/ports.js';

const USAGE = 'Usage: tsx scripts/build-site.ts [--emulator] [--require]';

/**
 * `next build`, asynchronously (the emulator in this process must keep answering meanwhile), then
 * each page's critical CSS inlined, as `npm run build` does.
 */
async function nextBuild(env: Record<string, string>): Promise<number> {
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn('npx', ['next', 'build'], {
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.once('error', reject);
    child.once('exit', (exit) => resolve(exit ?? 1));
  });
  if (code !== 0) return code;
  const changed = await inlineCriticalCss('out');
  console.log(`build-site: critical CSS inlined in ${changed} pages`);
  return 0;
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        emulator: { type: 'boolean', default: false },
        require: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const env: Record<string, string> = {};
  if (values.require || values.emulator) env[REQUIRE_DATA_ENV] = '1';
  if (!values.emulator) return nextBuild(env);

  // The same seed the e2e run's own emulator (tests/e2e/global-setup.ts) starts from, so the
  // exported HTML shows exactly what the browser then reads. Imported here, not at the top, so a
  // plain build never loads the emulator.
  const { startEmulator } = await import('../emulator/index.js');
  const started = Date.now();
  const emulator = await startEmulator({
    memory: true,
    databaseUrl: '',
    port: E2E_API_PORT,
    dbPort: null,
    mailWebPort: 0,
    mailSmtpPort: 0,
    log: () => {},
  });
  try {
    if (emulator.url !== E2E_SUPABASE_URL) {
      console.error(`emulator listens on ${emulator.url}, expected ${E2E_SUPABASE_URL}`);
      return 1;
    }
    console.log(`build-site: seeded emulator at ${emulator.url} in ${Date.now() - started} ms`);
    return await nextBuild({ ...env, NEXT_PUBLIC_SUPABASE_URL: E2E_SUPABASE_URL });
  } finally {
    await emulator.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
