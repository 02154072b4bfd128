// Objects written to an on-disk emulator are still there, bytes and rows, after a restart.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../index.js';
import { client } from './testing.js';

// With DATABASE_URL a non-memory emulator would write into that server's real database, so this
// check of the on-disk layout runs on PGlite only (the native suite covers the same code paths).
const onDisk = process.env.DATABASE_URL ? describe.skip : describe;

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'postbox-storage-persist-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const start = () =>
  startEmulator({ dataDir, port: 0, dbPort: null, mailWebPort: 0, mailSmtpPort: 0 });

onDisk('storage on disk', () => {
  it('keeps objects under <dataDir>/storage across restarts', async () => {
    const first = await start();
    try {
      const storage = client(first, first.keys.secret).storage;
      await storage.createBucket('keep');
      expect((await storage.from('keep').upload('a/b.txt', 'kept bytes')).error).toBeNull();
      expect(
        (await storage.from('keep').upload('a/b.txt', 'newer bytes', { upsert: true })).error,
      ).toBeNull();
    } finally {
      await first.stop();
    }
    // Only the current version's file remains.
    expect(await readdir(join(dataDir, 'storage', 'keep', 'a', 'b.txt'))).toHaveLength(1);

    const second = await start();
    try {
      const { data } = await client(second, second.keys.secret)
        .storage.from('keep')
        .download('a/b.txt');
      expect(await data!.text()).toBe('newer bytes');
    } finally {
      await second.stop();
    }
    // Two on-disk boots, each with bootstrap and migrations.
  }, 180_000);
});
