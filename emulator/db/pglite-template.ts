// A cached, freshly initialised PGlite cluster, so in-memory databases skip initdb (seconds → under one).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

// The package's exports hide package.json; its entry point sits in <package>/dist/.
const require = createRequire(import.meta.url);
const PGLITE_DIR = dirname(dirname(require.resolve('@electric-sql/pglite')));
const PGLITE_VERSION = (
  JSON.parse(readFileSync(join(PGLITE_DIR, 'package.json'), 'utf8')) as { version: string }
).version;
const CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/postbox/', import.meta.url));
const CACHE_FILE = join(CACHE_DIR, `pglite-${PGLITE_VERSION}-initdb.tar.gz`);

let inProcess: Promise<Blob> | null = null;

async function build(): Promise<Blob> {
  try {
    return new Blob([await readFile(CACHE_FILE)]);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  // Nothing in it but what initdb makes: platform objects are still bootstrapped on every start.
  const pglite = await PGlite.create();
  const dump = await pglite.dumpDataDir('gzip');
  await pglite.close();
  try {
    // Written under a unique name and renamed, so concurrent test processes never read half a file.
    await mkdir(CACHE_DIR, { recursive: true });
    const partial = `${CACHE_FILE}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, CACHE_FILE);
  } catch {
    // A read-only checkout only loses the cache across processes.
  }
  return dump;
}

/** The initdb output for this PGlite version, built once per machine and kept in memory. */
export function initdbTemplate(): Promise<Blob> {
  inProcess ??= build().catch((err: unknown) => {
    inProcess = null;
    throw err;
  });
  return inProcess;
}
