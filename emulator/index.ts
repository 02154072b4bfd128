// Public entry of the emulator for tests, benchmarks and scripts.
export { startEmulator, type RunningEmulator, type StartEmulatorOptions } from './start.js';
export { KEYS, type EmulatorKeys } from './keys.js';
