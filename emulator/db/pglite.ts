// Embedded Postgres (PGlite, WebAssembly) with the contrib extensions Postbox's migrations use.
import { PGlite, types, type Transaction } from '@electric-sql/pglite';
import { citext } from '@electric-sql/pglite/contrib/citext';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { uuid_ossp } from '@electric-sql/pglite/contrib/uuid_ossp';
import { SessionLock } from './session-lock.js';
import { pipelinedTransaction } from './pglite-pipeline.js';
import { TEXT_RESULT_TYPES, type Db, type Queryable, type QueryResult } from './types.js';

export interface PgliteOptions {
  /** Directory for the database files; undefined keeps everything in memory. */
  dataDir?: string;
  /** A dumped data directory to start from instead of running initdb (see pglite-template.ts). */
  loadDataDir?: Blob;
}

/** What the wire-protocol server needs beyond the Db interface. */
export interface PgliteDb extends Db {
  readonly kind: 'pglite';
  readonly pglite: PGlite;
  /** The queue every use of the one PGlite session goes through. */
  readonly lock: SessionLock;
  /** Hands a NOTIFY seen in a wire client's output to the emulator's own listeners. */
  deliverNotification(channel: string, payload: string): void;
}

const asText = (value: string) => value;
const parsers = Object.fromEntries(TEXT_RESULT_TYPES.map((oid) => [oid, asText]));

type PgliteLike = Pick<PGlite, 'query' | 'exec'> | Transaction;

function wrap(target: PgliteLike, lock?: SessionLock): Queryable {
  const locked = <T>(fn: () => Promise<T>) => (lock ? lock.run(fn) : fn());
  return {
    query<R>(sql: string, params: unknown[] = []): Promise<QueryResult<R>> {
      return locked(async () => {
        const result = await target.query<R>(sql, params);
        return {
          rows: result.rows,
          fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
          affectedRows: result.affectedRows ?? 0,
        };
      });
    },
    exec(sql: string): Promise<void> {
      return locked(async () => {
        await target.exec(sql);
      });
    },
  };
}

export async function openPglite(options: PgliteOptions = {}): Promise<PgliteDb> {
  const pglite = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { citext, pg_trgm, pgcrypto, uuid_ossp },
    parsers,
  });
  const lock = new SessionLock();
  const base = wrap(pglite, lock);
  const pipelineTarget = {
    pglite,
    plain: wrap(pglite),
    parsers: { ...types.parsers, ...parsers },
  };
  // One LISTEN per channel in the session, fanned out to every subscriber.
  const listeners = new Map<string, Set<(payload: string) => void>>();
  const unlistens = new Map<string, () => Promise<void>>();
  const deliver = (channel: string, payload: string) => {
    for (const listener of listeners.get(channel) ?? []) lock.outside(() => listener(payload));
  };
  return {
    kind: 'pglite',
    pglite,
    lock,
    deliverNotification: deliver,
    query: base.query,
    exec: base.exec,
    transaction: (fn, options) =>
      lock.run(() =>
        options?.setup || options?.readOnly
          ? pipelinedTransaction(pipelineTarget, fn, options)
          : pglite.transaction((tx) => fn(wrap(tx))),
      ),
    async listen(channel, onNotify) {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        const unlisten = await lock.run(() =>
          pglite.listen(channel, (payload) => deliver(channel, payload)),
        );
        unlistens.set(channel, unlisten);
      }
      set.add(onNotify);
      return async () => {
        set.delete(onNotify);
        if (set.size || listeners.get(channel) !== set) return;
        listeners.delete(channel);
        const unlisten = unlistens.get(channel);
        unlistens.delete(channel);
        if (unlisten && !pglite.closed) await lock.run(unlisten);
      };
    },
    close: () => lock.run(() => pglite.close()),
  };
}

export function isPgliteDb(db: Db): db is PgliteDb {
  return db.kind === 'pglite' && 'lock' in db && 'pglite' in db;
}
