// Opens the emulator's database: PGlite on disk or in memory, or a native server from DATABASE_URL.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import pg from 'pg';
import { clearDataDir, lockDataDir } from './data-dir-lock.js';
import { openNative } from './native.js';
import { openPglite } from './pglite.js';
import { platformTemplate } from './pglite-template.js';
import type { Db } from './types.js';

export interface OpenDatabaseOptions {
  /** Native Postgres to use instead of PGlite. */
  databaseUrl?: string;
  /** PGlite: keep nothing on disk. Native: work in a throw-away database dropped on close. */
  memory?: boolean;
  /** PGlite data directory (ignored with memory or a databaseUrl). */
  dataDir: string;
  /** Drop the existing data first. */
  reset?: boolean;
}

export interface OpenedDatabase {
  db: Db;
  /** Connection URL for SUPABASE_DB_URL; null for PGlite until startEmulator serves it (db/wire.ts). */
  url: string | null;
  /** True when the database was just created and needs bootstrap, migrations and seed. */
  fresh: boolean;
  close(): Promise<void>;
}

const TEMP_PREFIX = 'postbox_';
/** Throw-away databases older than this were left by a run that crashed before dropping them. */
const STALE_AFTER_MS = 6 * 60 * 60 * 1000;

/** `postbox_<base36 ms>_<hex>` → its creation time, or null for other names. */
export function tempDatabaseCreatedAt(name: string): number | null {
  const match = name.match(/^postbox_([0-9a-z]+)_[0-9a-f]{8}$/);
  return match ? parseInt(match[1]!, 36) : null;
}

/**
 * Drops throw-away databases of crashed runs. Only old ones, and never one with a connection
 * (a plain DROP DATABASE refuses those), so concurrent runs keep theirs; losing a race with
 * another run dropping the same database is fine.
 */
async function dropStaleDatabases(admin: pg.Client): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    "select datname from pg_database where datname like 'postbox\\_%'",
  );
  const cutoff = Date.now() - STALE_AFTER_MS;
  for (const { datname } of rows) {
    const createdAt = tempDatabaseCreatedAt(datname);
    if (createdAt === null || createdAt > cutoff) continue;
    await admin.query(`drop database if exists ${pg.escapeIdentifier(datname)}`).catch(() => {});
  }
}

async function openNativeDatabase(
  databaseUrl: string,
  temporary: boolean,
): Promise<OpenedDatabase> {
  if (!temporary) {
    const db = await openNative(databaseUrl);
    const { rows } = await db.query<{ exists: boolean }>(
      "select to_regclass('supabase_migrations.schema_migrations') is not null as exists",
    );
    return { db, url: databaseUrl, fresh: !rows[0]?.exists, close: () => db.close() };
  }
  // Each test instance gets a database of its own, so test files never see each other's rows.
  const name = `${TEMP_PREFIX}${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await dropStaleDatabases(admin);
    await admin.query(`create database ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(databaseUrl);
  url.pathname = '/' + name;
  const db = await openNative(url.toString());
  return {
    db,
    url: url.toString(),
    fresh: true,
    async close() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: databaseUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
      await cleanup.end();
    },
  };
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<OpenedDatabase> {
  if (options.databaseUrl) {
    if (options.reset && !options.memory) {
      // Dropping someone's database is not the emulator's call; a throw-away one needs no reset.
      throw new Error(
        'reset is not supported with DATABASE_URL: drop and recreate that database yourself, or use memory mode',
      );
    }
    return openNativeDatabase(options.databaseUrl, options.memory ?? false);
  }
  if (options.memory) {
    const db = await openPglite({ loadDataDir: await platformTemplate() });
    return { db, url: null, fresh: true, close: () => db.close() };
  }
  const pgdata = `${options.dataDir}/pgdata`;
  await mkdir(options.dataDir, { recursive: true });
  const unlock = await lockDataDir(options.dataDir);
  try {
    if (options.reset) await clearDataDir(options.dataDir);
    return await openPgliteDataDir(pgdata, unlock);
  } catch (err) {
    await unlock();
    throw err;
  }
}

async function openPgliteDataDir(
  pgdata: string,
  unlock: () => Promise<void>,
): Promise<OpenedDatabase> {
  // A new data dir starts from the bootstrapped template too (PGlite unpacks it there).
  const created = !existsSync(`${pgdata}/PG_VERSION`);
  const db = await openPglite({
    dataDir: pgdata,
    loadDataDir: created ? await platformTemplate() : undefined,
  });
  // Fresh = nothing of a project applied yet (a crash may have left a half-made data dir).
  let applied: number | undefined;
  try {
    const { rows } = await db.query<{ exists: boolean }>(
      "select to_regclass('supabase_migrations.schema_migrations') is not null as exists",
    );
    applied = rows[0]?.exists
      ? (
          await db.query<{ n: number }>(
            'select count(*)::int as n from supabase_migrations.schema_migrations',
          )
        ).rows[0]?.n
      : 0;
  } catch (err) {
    await db.close();
    throw err;
  }
  return {
    db,
    url: null,
    fresh: created || !applied,
    async close() {
      await db.close();
      await unlock();
    },
  };
}
