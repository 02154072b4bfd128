// `npm run emulator`: parses the command line, starts the emulator and prints what `supabase status` prints.
import { parseArgs } from 'node:util';
import { banner } from './banner.js';
import { startEmulator, type RunningEmulator } from './start.js';

const USAGE = `Usage: npm run emulator -- [--data-dir DIR] [--memory] [--reset] [--port N] [--site-url URL]
  --data-dir DIR  where the embedded database keeps its files (default .postbox/)
  --memory        keep nothing on disk
  --reset         drop the existing data and start fresh
  --port N        API gateway port (default 54321)
  --site-url URL  where the site is served (default config.toml's site_url): the functions'
                  POSTBOX_SITE_URL, Auth's site_url and its allowed redirect URLs follow it
Set DATABASE_URL to use a native Postgres server instead of the embedded one.`;

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        'data-dir': { type: 'string' },
        memory: { type: 'boolean', default: false },
        reset: { type: 'boolean', default: false },
        port: { type: 'string' },
        'site-url': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !Number.isInteger(port)) {
    console.error(`--port must be a whole number\n\n${USAGE}`);
    process.exit(2);
  }
  const siteUrl = values['site-url'];
  if (siteUrl !== undefined && !/^https?:\/\/[^/]/.test(siteUrl)) {
    console.error(`--site-url must be an http(s) URL\n\n${USAGE}`);
    process.exit(2);
  }
  const started = Date.now();
  let emu: RunningEmulator;
  try {
    emu = await startEmulator({
      dataDir: values['data-dir'],
      memory: values.memory,
      reset: values.reset,
      port,
      siteUrl,
      watchFunctions: process.env.POSTBOX_WATCH_FUNCTIONS === '1',
      log: (m) => console.log(`[emulator] ${m}`),
    });
  } catch (err) {
    console.error(`[emulator] failed to start: ${(err as Error).message}`);
    process.exit(1);
  }
  console.log(`${banner(emu)}\n\n  ready in ${Date.now() - started} ms — Ctrl-C stops it.`);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\n[emulator] stopping…');
    await emu.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

await main();
