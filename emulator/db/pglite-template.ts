// Cached PGlite clusters to start in-memory databases from, so tests skip initdb and most of the bootstrap.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { bootstrapFiles, bootstrapPlatform } from './bootstrap.js';
import { openPglite } from './pglite.js';

// The package's exports hide package.json; its entry point sits in <package>/dist/.
const require = createRequire(import.meta.url);
const PGLITE_DIR = dirname(dirname(require.resolve('@electric-sql/pglite')));
const PGLITE_VERSION = (
  JSON.parse(readFileSync(join(PGLITE_DIR, 'package.json'), 'utf8')) as { version: string }
).version;
const CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/postbox/', import.meta.url));

const inProcess = new Map<string, Promise<Blob>>();

/** Reads a cached dump, or makes it and stores it for the next process. */
async function cached(name: string, make: () => Promise<Blob>, stale?: RegExp): Promise<Blob> {
  const path = join(CACHE_DIR, name);
  try {
    return new Blob([await readFile(path)]);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const dump = await make();
  try {
    // Written under a unique name and renamed, so concurrent test processes never read half a file.
    await mkdir(CACHE_DIR, { recursive: true });
    const partial = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, path);
    for (const old of await readdir(CACHE_DIR)) {
      if (old !== name && stale?.test(old)) await rm(join(CACHE_DIR, old), { force: true });
    }
  } catch {
    // A read-only checkout only loses the cache across processes.
  }
  return dump;
}

function once(key: string, make: () => Promise<Blob>): Promise<Blob> {
  let promise = inProcess.get(key);
  if (!promise) {
    promise = make().catch((err: unknown) => {
      inProcess.delete(key);
      throw err;
    });
    inProcess.set(key, promise);
  }
  return promise;
}

/** What initdb makes, for this PGlite version. */
export function initdbTemplate(): Promise<Blob> {
  return once('initdb', () =>
    cached(`pglite-${PGLITE_VERSION}-initdb.tar.gz`, async () => {
      const pglite = await PGlite.create();
      const dump = await pglite.dumpDataDir('gzip');
      await pglite.close();
      return dump;
    }),
  );
}

/**
 * A cluster with the platform bootstrap already applied, keyed by the bootstrap files' text, so
 * an edit to any of them builds a new one. Starts still run the (idempotent) bootstrap again.
 */
export async function platformTemplate(): Promise<Blob> {
  const files = await bootstrapFiles();
  const hash = createHash('sha256');
  for (const { file, sql } of files) hash.update(`${file}\0${sql}\0`);
  const key = hash.digest('hex').slice(0, 16);
  const prefix = `pglite-${PGLITE_VERSION}-platform-`;
  return once(`platform-${key}`, () =>
    cached(
      `${prefix}${key}.tar.gz`,
      async () => {
        const db = await openPglite({ loadDataDir: await initdbTemplate() });
        try {
          await bootstrapPlatform(db, files);
          return await db.pglite.dumpDataDir('gzip');
        } finally {
          await db.close();
        }
      },
      new RegExp(`^pglite-.*-platform-[0-9a-f]{16}\\.tar\\.gz$`),
    ),
  );
}
