// Object bytes on disk: `<root>/<bucket>/<key>/<version>`, as supabase/storage's file backend lays them out.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { copyFile, mkdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ERRORS } from './errors.js';

export interface StoredFile {
  /** Temp path; `commit()` moves it to its final place. */
  tempPath: string;
  size: number;
  /** Quoted MD5 of the bytes, the S3/file-backend ETag upstream stores in metadata.eTag. */
  eTag: string;
}

export interface FileStore {
  /** Streams a body to a temp file, refusing more than maxBytes (EntityTooLarge). */
  writeTemp(body: ReadableStream<Uint8Array> | Uint8Array, maxBytes: number): Promise<StoredFile>;
  /** Moves a temp file to the object's version path (same filesystem: atomic rename). */
  commit(file: StoredFile, bucket: string, key: string, version: string): Promise<void>;
  copy(from: ObjectRef, to: ObjectRef): Promise<void>;
  remove(ref: ObjectRef): Promise<void>;
  discard(file: StoredFile): Promise<void>;
  size(ref: ObjectRef): Promise<number | null>;
  read(ref: ObjectRef, range?: { from: number; to: number }): ReadableStream<Uint8Array>;
  readAll(ref: ObjectRef): Promise<Buffer>;
  close(): Promise<void>;
}

export interface ObjectRef {
  bucket: string;
  key: string;
  version: string;
}

/**
 * Path segments are escaped so that no key can leave its bucket: `.`/`..`/empty segments
 * (valid in upstream keys) would otherwise be collapsed or climb directories.
 */
function segment(part: string): string {
  if (part === '') return '%';
  if (part === '.' || part === '..') return part.replace(/\./g, '%2E');
  return encodeURIComponent(part);
}

/** Synchronous so the service can be wired in one line at startup. */
export function createFileStore(dir: string | null): FileStore {
  const root = dir ?? mkdtempSync(join(tmpdir(), 'postbox-storage-'));
  const tmp = join(root, '.tmp');
  // Half-written uploads of a previous run that stopped mid-request are never referenced by a row.
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });

  const pathOf = ({ bucket, key, version }: ObjectRef) => {
    const path = join(root, segment(bucket), ...key.split('/').map(segment), segment(version));
    const rel = relative(root, path);
    if (rel.startsWith('..') || rel.split(sep).includes('..')) throw ERRORS.invalidKey(key);
    return path;
  };

  // Removes now-empty folders up to the bucket, so listing the data dir mirrors the objects.
  const prune = async (path: string) => {
    let current = dirname(path);
    while (relative(root, current).includes(sep)) {
      try {
        await rmdir(current);
      } catch {
        return;
      }
      current = dirname(current);
    }
  };

  return {
    async writeTemp(body, maxBytes) {
      const tempPath = join(tmp, randomUUID());
      const hash = createHash('md5');
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (size > maxBytes) return done(ERRORS.entityTooLarge());
          hash.update(chunk);
          done(null, chunk);
        },
      });
      const source =
        body instanceof Uint8Array
          ? Readable.from([Buffer.from(body)])
          : Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
      try {
        await pipeline(source, meter, createWriteStream(tempPath));
      } catch (err) {
        await rm(tempPath, { force: true });
        throw err;
      }
      return { tempPath, size, eTag: `"${hash.digest('hex')}"` };
    },
    async commit(file, bucket, key, version) {
      const path = pathOf({ bucket, key, version });
      await mkdir(dirname(path), { recursive: true });
      await rename(file.tempPath, path);
    },
    async copy(from, to) {
      const target = pathOf(to);
      await mkdir(dirname(target), { recursive: true });
      await copyFile(pathOf(from), target);
    },
    async remove(ref) {
      const path = pathOf(ref);
      await rm(path, { force: true });
      await prune(path);
    },
    async discard(file) {
      await rm(file.tempPath, { force: true });
    },
    async size(ref) {
      try {
        return (await stat(pathOf(ref))).size;
      } catch {
        return null;
      }
    },
    read(ref, range) {
      const stream = createReadStream(
        pathOf(ref),
        range ? { start: range.from, end: range.to } : {},
      );
      return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
    },
    async readAll(ref) {
      const chunks: Buffer[] = [];
      for await (const chunk of createReadStream(pathOf(ref))) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    async close() {
      if (dir === null) await rm(root, { recursive: true, force: true });
    },
  };
}
