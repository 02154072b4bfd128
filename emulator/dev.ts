// `npm run dev`: the emulator plus `next dev`, by default on http://127.0.0.1:54321 and :3000
// (`npm run dev -- --port N --api-port M` moves them; see dev-options.ts).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { banner } from './banner.js';
import { DEV_USAGE, DevUsageError, parseDevArgs, type DevOptions } from './dev-options.js';
import { startEmulator } from './start.js';

let options: DevOptions;
try {
  options = parseDevArgs(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof DevUsageError)) throw err;
  console.error(`${err.message}\n\n${DEV_USAGE}`);
  process.exit(2);
}
if (options.help) {
  console.log(DEV_USAGE);
  process.exit(0);
}

const emu = await startEmulator({
  port: options.apiPort,
  siteUrl: options.siteUrl,
  watchFunctions: true,
  log: (m) => console.log(`[emulator] ${m}`),
}).catch((err: Error) => {
  console.error(`[emulator] failed to start: ${err.message}`);
  process.exit(1);
});
console.log(`${banner(emu)}\n\n  Site (next dev): ${options.siteUrl}`);

// Next's own entry, not `npx next`: killing npx would leave its next child running on the port.
const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
const next = spawn(
  process.execPath,
  [nextBin, 'dev', '--hostname', '127.0.0.1', '--port', String(options.sitePort)],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      NEXT_PUBLIC_SUPABASE_URL: process.env.NEXT_PUBLIC_SUPABASE_URL ?? emu.url,
      NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY:
        process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY ?? emu.keys.publishable,
    },
  },
);

let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  if (next.exitCode === null) {
    const exited = new Promise((done) => next.once('exit', done));
    next.kill('SIGTERM');
    await exited;
  }
  await emu.stop();
  process.exit(code);
}
next.on('exit', (code) => void shutdown(code ?? 0));
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
