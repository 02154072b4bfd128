// Unit tests for the lock that keeps two emulators off one PGlite data dir.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearDataDir, lockDataDir } from './data-dir-lock.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'postbox-lock-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('lockDataDir', () => {
  it('refuses a data dir held by a running process, naming it', async () => {
    const unlock = await lockDataDir(dir);
    await expect(lockDataDir(dir)).rejects.toThrow(
      `data dir ${dir} is in use by another emulator (pid ${process.pid})`,
    );
    await unlock();
    const again = await lockDataDir(dir);
    await again();
  });

  it('takes over a lock left by a process that is gone', async () => {
    // Pids are below 2^22 on Linux, so this one cannot be running.
    await writeFile(join(dir, 'postbox.pid'), '99999999');
    const unlock = await lockDataDir(dir);
    await unlock();
    expect(await readdir(dir)).toEqual([]);
  });

  it('clears everything but the lock for a reset', async () => {
    const unlock = await lockDataDir(dir);
    await writeFile(join(dir, 'file'), 'x');
    await clearDataDir(dir);
    expect(await readdir(dir)).toEqual(['postbox.pid']);
    await unlock();
  });
});
