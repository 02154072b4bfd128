// Embedded Postgres (PGlite, WebAssembly) with the contrib extensions Postbox's migrations use.
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { citext } from '@electric-sql/pglite/contrib/citext';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { uuid_ossp } from '@electric-sql/pglite/contrib/uuid_ossp';
import { TEXT_RESULT_TYPES, type Db, type Queryable, type QueryResult } from './types.js';

export interface PgliteOptions {
  /** Directory for the database files; undefined keeps everything in memory. */
  dataDir?: string;
}

const asText = (value: string) => value;
const parsers = Object.fromEntries(TEXT_RESULT_TYPES.map((oid) => [oid, asText]));

type PgliteLike = Pick<PGlite, 'query' | 'exec'> | Transaction;

function wrap(target: PgliteLike): Queryable {
  return {
    async query<R>(sql: string, params: unknown[] = []): Promise<QueryResult<R>> {
      const result = await target.query<R>(sql, params);
      return {
        rows: result.rows,
        fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
        affectedRows: result.affectedRows ?? 0,
      };
    },
    async exec(sql: string): Promise<void> {
      await target.exec(sql);
    },
  };
}

export async function openPglite(options: PgliteOptions = {}): Promise<Db & { pglite: PGlite }> {
  const pglite = await PGlite.create({
    dataDir: options.dataDir,
    extensions: { citext, pg_trgm, pgcrypto, uuid_ossp },
    parsers,
  });
  const base = wrap(pglite);
  return {
    kind: 'pglite',
    pglite,
    query: base.query,
    exec: base.exec,
    transaction: (fn) => pglite.transaction((tx) => fn(wrap(tx))),
    async listen(channel, onNotify) {
      const unlisten = await pglite.listen(channel, onNotify);
      return () => unlisten();
    },
    close: () => pglite.close(),
  };
}
