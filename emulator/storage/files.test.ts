// Unit tests for the on-disk object store: layout, escaping, size limits, temp dirs.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StorageError } from './errors.js';
import { createFileStore } from './files.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function store() {
  const dir = await mkdtemp(join(tmpdir(), 'postbox-files-test-'));
  dirs.push(dir);
  return { dir, files: createFileStore(dir) };
}

describe('storage file store', () => {
  it('writes bytes with an MD5 ETag and moves them under bucket/key/version', async () => {
    const { dir, files } = await store();
    const stored = await files.writeTemp(new TextEncoder().encode('hello'), 100);
    expect(stored).toMatchObject({ size: 5, eTag: '"5d41402abc4b2a76b9719d911017c592"' });
    await files.commit(stored, 'b', 'a/c.txt', 'v1');
    expect(await readdir(join(dir, 'b', 'a', 'c.txt'))).toEqual(['v1']);
    const ref = { bucket: 'b', key: 'a/c.txt', version: 'v1' };
    expect((await files.readAll(ref)).toString()).toBe('hello');
    expect(await files.size(ref)).toBe(5);
    await files.remove(ref);
    expect(await files.size(ref)).toBeNull();
    // Empty folders are pruned up to the bucket.
    expect(existsSync(join(dir, 'b', 'a'))).toBe(false);
  });

  it('keeps dot segments inside the bucket', async () => {
    const { dir, files } = await store();
    const stored = await files.writeTemp(new TextEncoder().encode('x'), 10);
    await files.commit(stored, '..', '../../etc//passwd', 'v');
    expect(await readdir(dir)).toEqual(expect.arrayContaining(['%2E%2E']));
    expect(existsSync(join(dir, '%2E%2E', '%2E%2E', '%2E%2E', 'etc', '%', 'passwd', 'v'))).toBe(
      true,
    );
  });

  it('refuses more bytes than allowed and leaves no temp file', async () => {
    const { dir, files } = await store();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(8));
        controller.enqueue(new Uint8Array(8));
        controller.close();
      },
    });
    await expect(files.writeTemp(body, 10)).rejects.toBeInstanceOf(StorageError);
    expect(await readdir(join(dir, '.tmp'))).toEqual([]);
  });

  it('uses a temp dir that is removed on close when given no dir', async () => {
    const files = createFileStore(null);
    const stored = await files.writeTemp(new Uint8Array([1]), 1);
    const root = join(stored.tempPath, '..', '..');
    expect(existsSync(root)).toBe(true);
    await files.close();
    expect(existsSync(root)).toBe(false);
  });
});
