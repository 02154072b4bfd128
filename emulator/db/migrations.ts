// Applies supabase/migrations/*.sql once each and supabase/seed.sql once, recorded as the Supabase CLI records them.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withExtensionShims } from '../cron/extension-shim.js';
import { ensureHostedPostgresRole, trialAsHostedPostgres } from './hosted-role.js';
import { splitStatements } from './sql-split.js';
import type { Db, Queryable } from './types.js';

export interface RunOptions {
  /** First run each file as hosted's non-superuser `postgres` and roll it back (hosted-role.ts). */
  hostedCheck?: boolean;
}

export interface AppliedMigration {
  version: string;
  name: string;
}

/** `20260101120000_create_lists.sql` → version `20260101120000`, name `create_lists`. */
export function parseMigrationFilename(file: string): AppliedMigration | null {
  const match = file.match(/^(\d+)_(.+)\.sql$/);
  return match ? { version: match[1]!, name: match[2]! } : null;
}

/** A migration or seed that Postgres rejected; the message names the file, line and error. */
export class SqlFileError extends Error {
  constructor(
    readonly file: string,
    readonly cause: Error & { code?: string; position?: string },
    sql: string,
  ) {
    const line = lineOf(sql, Number(cause.position));
    const where = line ? `${file} (line ${line})` : file;
    const code = cause.code ? ` [SQLSTATE ${cause.code}]` : '';
    super(`${where} failed: ${cause.message}${code}`);
    this.name = 'SqlFileError';
  }
}

function lineOf(sql: string, position: number): number | null {
  if (!Number.isInteger(position) || position < 1) return null;
  return sql.slice(0, position - 1).split('\n').length;
}

// Migrations and seeds run as `postgres` with its hosted search_path, whatever the session had
// (or, for the opt-in hosted check, as hosted-role.ts's stand-in for hosted `postgres`).
async function runAsPostgres(
  tx: Queryable,
  file: string,
  sql: string,
  role = 'postgres',
): Promise<void> {
  await tx.exec(`set local role ${role}; set local search_path = "$user", public, extensions`);
  try {
    // `create extension pg_cron|pg_net` becomes a no-op where the emulator's stand-ins serve (cron/).
    await tx.exec(await withExtensionShims(tx, sql));
  } catch (err) {
    throw new SqlFileError(file, err as Error, sql);
  }
  await tx.exec('reset role; set local search_path = "$user", public, extensions');
}

async function sqlFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/**
 * Each pending file runs in its own transaction together with its schema_migrations row, so a
 * failing file leaves nothing behind and the next start retries it; the error stops the loop.
 */
export async function runMigrations(
  db: Db,
  migrationsDir: string,
  { hostedCheck = false }: RunOptions = {},
): Promise<AppliedMigration[]> {
  const files = await sqlFiles(migrationsDir);
  if (hostedCheck && files.length) await ensureHostedPostgresRole(db);
  const { rows } = await db.query<{ version: string }>(
    'select version from supabase_migrations.schema_migrations',
  );
  const done = new Set(rows.map((r) => r.version));
  const applied: AppliedMigration[] = [];
  for (const file of files) {
    const parsed = parseMigrationFilename(file);
    // The CLI skips such files with a warning; failing is louder and catches typos.
    if (!parsed) throw new Error(`migration file name must be <timestamp>_<name>.sql: ${file}`);
    if (done.has(parsed.version)) continue;
    const sql = await readFile(join(migrationsDir, file), 'utf8');
    if (hostedCheck) {
      await trialAsHostedPostgres(db, (tx, role) =>
        runAsPostgres(tx, `migration ${file}`, sql, role),
      );
    }
    await db.transaction(async (tx) => {
      await runAsPostgres(tx, `migration ${file}`, sql);
      await tx.query(
        'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
        [parsed.version, parsed.name, splitStatements(sql)],
      );
    });
    applied.push(parsed);
  }
  return applied;
}

const SEED_TABLE = `create table if not exists supabase_migrations.seed_files (
  path text primary key,
  hash text not null
)`;

/**
 * Runs the seed once per database: it is recorded in supabase_migrations.seed_files (as the CLI
 * does for `db push --include-seed`), so a restart never reseeds, and a first start that failed
 * before seeding still seeds on the next one. Returns whether it ran.
 */
export async function runSeed(
  db: Db,
  seedPath: string,
  recordAs = 'supabase/seed.sql',
  { hostedCheck = false }: RunOptions = {},
) {
  let sql: string;
  try {
    sql = await readFile(seedPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  await db.exec(SEED_TABLE);
  const { rows } = await db.query('select 1 from supabase_migrations.seed_files where path = $1', [
    recordAs,
  ]);
  if (rows.length) return false;
  if (hostedCheck) {
    await ensureHostedPostgresRole(db);
    await trialAsHostedPostgres(db, (tx, role) => runAsPostgres(tx, `seed ${recordAs}`, sql, role));
  }
  await db.transaction(async (tx) => {
    await runAsPostgres(tx, `seed ${recordAs}`, sql);
    await tx.query('insert into supabase_migrations.seed_files (path, hash) values ($1, $2)', [
      recordAs,
      createHash('sha256').update(sql).digest('hex'),
    ]);
  });
  return true;
}
