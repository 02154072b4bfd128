// `npm run dev`: the emulator on its standard ports plus `next dev` on http://127.0.0.1:3000.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { banner } from './banner.js';
import { startEmulator } from './start.js';

const emu = await startEmulator({
  watchFunctions: true,
  log: (m) => console.log(`[emulator] ${m}`),
}).catch((err: Error) => {
  console.error(`[emulator] failed to start: ${err.message}`);
  process.exit(1);
});
console.log(banner(emu));

// Next's own entry, not `npx next`: killing npx would leave its next child running on :3000.
const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
const next = spawn(
  process.execPath,
  [nextBin, 'dev', '--hostname', '127.0.0.1', '--port', '3000'],
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
