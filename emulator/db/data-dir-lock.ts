// Keeps two emulators from opening one PGlite data dir at once (PGlite has no lock of its own).
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const LOCK_FILE = 'postbox.pid';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims dataDir for this process, or fails naming the process that holds it. A lock left by a
 * process that no longer runs is taken over. Returns the function that releases it.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(path, String(process.pid), { flag: 'wx' });
      return () => rm(path, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number((await readFile(path, 'utf8').catch(() => '')).trim());
    if (Number.isInteger(holder) && holder > 0 && alive(holder)) {
      throw new Error(
        `data dir ${dataDir} is in use by another emulator (pid ${holder}); stop it or pick another --data-dir`,
      );
    }
    await rm(path, { force: true });
  }
  throw new Error(`could not lock data dir ${dataDir}`);
}

/** Empties dataDir for --reset, keeping the lock this process holds. */
export async function clearDataDir(dataDir: string): Promise<void> {
  for (const entry of await readdir(dataDir)) {
    if (entry !== LOCK_FILE) await rm(join(dataDir, entry), { recursive: true, force: true });
  }
}
