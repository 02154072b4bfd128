// Boot sequence: migrations once each and atomically, seed once, data kept between starts, loud failures.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type StartEmulatorOptions } from '../index.js';
import { writeProjectFiles } from '../test-project.js';

const DATABASE_URL = process.env.DATABASE_URL;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PORTS = { port: 0, dbPort: null, mailWebPort: 0, mailSmtpPort: 0 } as const;

const CREATE_LISTS = `create table public.lists (id int primary key, name text not null);
grant select on public.lists to anon;
alter publication supabase_realtime add table public.lists;`;
const BROKEN = `create table public.members (id int primary key);

insert into public.nowhere values (1);`;
const CREATE_MEMBERS = `create table public.members (id int primary key);`;
const SEED = `insert into public.lists values (1, 'seeded');`;

describe('a persistent database across starts', () => {
  let projectDir: string;
  let databaseName: string | null = null;
  // PGlite keeps its files in dataDir; a native server gets a database of the test's own.
  let persistent: StartEmulatorOptions;

  beforeAll(async () => {
    projectDir = await mkdtemp(join(tmpdir(), 'postbox-migrations-'));
    if (DATABASE_URL) {
      // Named like the emulator's throw-away databases, so a crashed run's copy is cleaned up too.
      databaseName = `postbox_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      await admin.query(`create database ${databaseName}`);
      await admin.end();
      const url = new URL(DATABASE_URL);
      url.pathname = `/${databaseName}`;
      persistent = { projectDir, databaseUrl: url.toString(), ...PORTS };
    } else {
      persistent = { projectDir, databaseUrl: '', dataDir: join(projectDir, '.postbox'), ...PORTS };
    }
  });

  afterAll(async () => {
    if (databaseName && DATABASE_URL) {
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${databaseName} with (force)`);
      await admin.end();
    }
    await rm(projectDir, { recursive: true, force: true });
  });

  it('applies migrations and the seed on the first start', async () => {
    await writeProjectFiles(projectDir, {
      'migrations/20260101000001_create_lists.sql': CREATE_LISTS,
      'seed.sql': SEED,
    });
    const emu = await startEmulator(persistent);
    try {
      const { rows } = await emu.db.query(
        'select version, name, statements from supabase_migrations.schema_migrations',
      );
      expect(rows).toEqual([
        {
          version: '20260101000001',
          name: 'create_lists',
          statements: [
            'create table public.lists (id int primary key, name text not null)',
            'grant select on public.lists to anon',
            'alter publication supabase_realtime add table public.lists',
          ],
        },
      ]);
      expect((await emu.db.query('select name from public.lists')).rows).toEqual([
        { name: 'seeded' },
      ]);
    } finally {
      await emu.stop();
    }
  }, 60_000);

  it('stops on a failing migration, naming the file and the error, and keeps none of it', async () => {
    await writeProjectFiles(projectDir, { 'migrations/20260101000002_members.sql': BROKEN });
    const logs: string[] = [];
    await expect(startEmulator({ ...persistent, log: (m) => logs.push(m) })).rejects.toThrow(
      'migration 20260101000002_members.sql (line 3) failed: relation "public.nowhere" does not exist [SQLSTATE 42P01]',
    );
  }, 60_000);

  it('applies only the new migration on the next start and does not reseed', async () => {
    // Had the broken file left `members` behind, this fixed one would fail with "already exists".
    await writeProjectFiles(projectDir, {
      'migrations/20260101000002_members.sql': CREATE_MEMBERS,
    });
    const logs: string[] = [];
    const emu = await startEmulator({ ...persistent, log: (m) => logs.push(m) });
    try {
      expect(logs).toContain('migrations applied: 20260101000002');
      expect(logs).not.toContain('seed.sql applied');
      const versions = await emu.db.query<{ version: string }>(
        'select version from supabase_migrations.schema_migrations order by version',
      );
      expect(versions.rows.map((r) => r.version)).toEqual(['20260101000001', '20260101000002']);
      expect((await emu.db.query('select count(*)::int as n from public.lists')).rows).toEqual([
        { n: 1 },
      ]);
      // Bootstrapping again on every start keeps what migrations did to platform objects.
      const published = await emu.db.query(
        "select tablename from pg_publication_tables where pubname = 'supabase_realtime'",
      );
      expect(published.rows).toEqual([{ tablename: 'lists' }]);
      const granted = await emu.db.query(
        "select has_table_privilege('anon', 'public.lists', 'select') as anon_reads",
      );
      expect(granted.rows).toEqual([{ anon_reads: true }]);
    } finally {
      await emu.stop();
    }
  }, 60_000);

  it.skipIf(!!DATABASE_URL)(
    'refuses a second emulator on the same data dir',
    async () => {
      const emu = await startEmulator(persistent);
      try {
        await expect(startEmulator(persistent)).rejects.toThrow(
          `data dir ${persistent.dataDir} is in use by another emulator (pid ${process.pid})`,
        );
      } finally {
        await emu.stop();
      }
    },
    60_000,
  );

  it.skipIf(!!DATABASE_URL)(
    'starts from scratch with reset (PGlite data dir)',
    async () => {
      const emu = await startEmulator({ ...persistent, reset: true });
      try {
        const versions = await emu.db.query(
          'select count(*)::int as n from supabase_migrations.schema_migrations',
        );
        expect(versions.rows).toEqual([{ n: 2 }]);
        expect((await emu.db.query('select name from public.lists')).rows).toEqual([
          { name: 'seeded' },
        ]);
      } finally {
        await emu.stop();
      }
    },
    60_000,
  );

  it.runIf(!!DATABASE_URL)('refuses reset on a database it does not own', async () => {
    await expect(startEmulator({ ...persistent, reset: true })).rejects.toThrow(
      /reset is not supported with DATABASE_URL/,
    );
  });
});

describe('npm run emulator', () => {
  it('exits non-zero and says why when a migration fails', async () => {
    const projectDir = await mkdtemp(join(tmpdir(), 'postbox-broken-'));
    try {
      await writeProjectFiles(projectDir, { 'migrations/20260101000001_broken.sql': BROKEN });
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = execFile(
          join(ROOT, 'node_modules/.bin/tsx'),
          [join(ROOT, 'emulator/main.ts'), '--memory', '--port', '0'],
          // Generous: a first start on a cold PGlite template cache under CI load takes a while.
          { cwd: projectDir, timeout: 150_000 },
          (_err, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
        );
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        '[emulator] failed to start: migration 20260101000001_broken.sql (line 3) failed: relation "public.nowhere" does not exist',
      );
    } finally {
      await rm(projectDir, { recursive: true, force: true });
    }
  }, 180_000);
});
