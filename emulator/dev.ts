// `npm run dev`: the emulator on its standard ports plus `next dev` on http://127.0.0.1:3000.
import { spawn } from 'node:child_process';
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

const next = spawn('npx', ['next', 'dev', '--hostname', '127.0.0.1', '--port', '3000'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    NEXT_PUBLIC_SUPABASE_URL: process.env.NEXT_PUBLIC_SUPABASE_URL ?? emu.url,
    NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY:
      process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY ?? emu.keys.publishable,
  },
});

let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  next.kill('SIGTERM');
  await emu.stop();
  process.exit(code);
}
next.on('exit', (code) => void shutdown(code ?? 0));
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
