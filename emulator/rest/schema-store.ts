// Holds the current schema cache; reloads it on `NOTIFY pgrst, 'reload schema'` and on demand.
import { forgetQueryNames } from '../db/statement-names.js';
import type { Db } from '../db/types.js';
import { loadSchemaCache, type SchemaCache } from './schema-cache.js';

export interface SchemaStore {
  get(): Promise<SchemaCache>;
  /** Reloads now; concurrent callers share one reload. */
  reload(): Promise<SchemaCache>;
  close(): Promise<void>;
}

export function createSchemaStore(
  db: Db,
  schemas: string[],
  log: (msg: string) => void,
): SchemaStore {
  let current: Promise<SchemaCache> | null = null;
  let reloading: Promise<SchemaCache> | null = null;
  let stopListening: (() => Promise<void>) | null = null;
  let closed = false;

  const reload = () => {
    if (!reloading) {
      // Prepared REST queries were typed against the old schema (see forgetQueryNames).
      forgetQueryNames();
      const next = loadSchemaCache(db, schemas);
      reloading = next;
      void next
        .then(() => {
          current = next;
        })
        .catch((err: unknown) => {
          // A reload still running when the service stops fails on the closed pool: not news.
          if (!closed) log(`[rest] schema cache reload failed: ${(err as Error).message}`);
        })
        .finally(() => {
          if (reloading === next) reloading = null;
        });
    }
    return reloading;
  };

  // PostgREST listens on channel `pgrst`: 'reload schema' (or an empty payload) reloads the cache.
  const listening = db
    .listen('pgrst', (payload) => {
      if (closed) return;
      if (payload === '' || payload === 'reload schema') void reload().catch(() => undefined);
    })
    .then((stop) => {
      stopListening = stop;
    })
    .catch((err: unknown) =>
      log(`[rest] cannot listen for schema reloads: ${(err as Error).message}`),
    );

  return {
    async get() {
      if (!current) current = reload();
      try {
        return await current;
      } catch {
        current = null;
        return reload();
      }
    },
    reload,
    async close() {
      closed = true;
      await listening;
      await stopListening?.();
      await reloading?.catch(() => undefined);
    },
  };
}
