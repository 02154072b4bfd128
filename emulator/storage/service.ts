// createStorageService(): the `/storage/v1` service — route table, one error handler, files on disk.
import { join } from 'node:path';
import type { ProjectConfig } from '../config.js';
import type { Db } from '../db/types.js';
import type { Service } from '../gateway/types.js';
import type { EmulatorKeys } from '../keys.js';
import { errorResponse, ERRORS, fromDbError, StorageError } from './errors.js';
import { createFileStore } from './files.js';
import { DEFAULT_FILE_SIZE_LIMIT } from './limits.js';
import type { StorageDeps } from './route.js';
import { matchStorageRoute, notImplementedFeature } from './routes.js';

export interface StorageServiceOptions {
  db: Db;
  config: ProjectConfig;
  keys: EmulatorKeys;
  /** Public gateway URL. */
  url: string;
  /** The emulator's data dir; objects go to `<dataDir>/storage`. null: a temp dir removed on close. */
  dataDir: string | null;
  /** Global upload limit in bytes (the CLI's `[storage] file_size_limit`, default 50 MiB). */
  fileSizeLimit?: number;
  log?: (message: string, err?: unknown) => void;
}

const PREFIX = '/storage/v1';

export function createStorageService(opts: StorageServiceOptions): Service {
  const log = opts.log ?? console.error;
  const files = createFileStore(opts.dataDir === null ? null : join(opts.dataDir, 'storage'));
  const deps: StorageDeps = {
    db: opts.db,
    files,
    fileSizeLimit: opts.fileSizeLimit ?? DEFAULT_FILE_SIZE_LIMIT,
    log,
  };

  return {
    async handle(req) {
      const url = new URL(req.url);
      const path = url.pathname.slice(PREFIX.length) || '/';
      try {
        const match = matchStorageRoute(req.method, path);
        if (!match) {
          const feature = notImplementedFeature(path);
          if (feature) throw ERRORS.notImplemented(feature);
          throw ERRORS.routeNotFound(req.method, path + url.search);
        }
        return await match.handler({ req, url, params: match.params, deps });
      } catch (err) {
        if (err instanceof StorageError) return errorResponse(err);
        const mapped = fromDbError(err);
        if (mapped) return errorResponse(mapped);
        log(`[storage] ${req.method} ${url.pathname} failed`, err);
        return errorResponse(ERRORS.internal());
      }
    },
    close: () => files.close(),
  };
}
