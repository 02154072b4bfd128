// Applies supabase/migrations/*.sql once each, recorded as the Supabase CLI records them.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from './types.js';

export interface AppliedMigration {
  version: string;
  name: string;
}

/** `20260101120000_create_lists.sql` → version `20260101120000`, name `create_lists`. */
export function parseMigrationFilename(file: string): AppliedMigration | null {
  const match = file.match(/^(\d+)_(.+)\.sql$/);
  return match ? { version: match[1]!, name: match[2]! } : null;
}

export async function runMigrations(db: Db, migrationsDir: string): Promise<AppliedMigration[]> {
  let files: string[] = [];
  try {
    files = (await readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const { rows } = await db.query<{ version: string }>(
    'select version from supabase_migrations.schema_migrations',
  );
  const done = new Set(rows.map((r) => r.version));
  const applied: AppliedMigration[] = [];
  for (const file of files) {
    const parsed = parseMigrationFilename(file);
    if (!parsed) throw new Error(`migration file name must be <timestamp>_<name>.sql: ${file}`);
    if (done.has(parsed.version)) continue;
    const sql = await readFile(join(migrationsDir, file), 'utf8');
    await db.transaction(async (tx) => {
      try {
        // Migrations run as `postgres`, the role hosted Supabase runs them as.
        await tx.exec(`set local role postgres;\n${sql}`);
      } catch (err) {
        throw new Error(`migration ${file} failed: ${(err as Error).message}`, { cause: err });
      }
      await tx.exec('reset role');
      await tx.query(
        'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
        [parsed.version, parsed.name, [sql]],
      );
    });
    applied.push(parsed);
  }
  return applied;
}

export async function runSeed(db: Db, seedPath: string): Promise<boolean> {
  let sql: string;
  try {
    sql = await readFile(seedPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  try {
    await db.exec(sql);
  } catch (err) {
    throw new Error(`seed ${seedPath} failed: ${(err as Error).message}`, { cause: err });
  }
  return true;
}
