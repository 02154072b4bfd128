// Runs before every test file. Files share a worker's process (vitest.config.ts: isolate: false),
// so each starts as it would in a process of its own: the environment as the worker started it
// (many kits pass settings to the emulator through process.env), and the project's own modules
// evaluated afresh (some read the environment once, at import). Dependencies under node_modules
// stay loaded: importing those again for every file is what isolation used to cost.
import { afterAll, vi } from 'vitest';

const started = { ...process.env };

vi.resetModules();

afterAll(() => {
  for (const key of Object.keys(process.env)) {
    if (!(key in started)) delete process.env[key];
  }
  Object.assign(process.env, started);
});
