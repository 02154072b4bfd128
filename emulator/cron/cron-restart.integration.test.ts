// pg_cron stand-in across restarts: jobs persist, runs cut short are failed with 'server restarted'.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type StartEmulatorOptions } from '../index.js';

const MIGRATION = `
create extension if not exists pg_cron with schema pg_catalog;
create table public.ticks (id bigserial primary key);
select cron.schedule('tick', '1 seconds', $$insert into public.ticks default values$$);
`;

let projectDir: string;
let options: StartEmulatorOptions;
// With DATABASE_URL: a database of this test's own on that server, kept across both starts.
const adminUrl = process.env.DATABASE_URL;
const dbName = `postbox_cron_restart_${randomBytes(4).toString('hex')}`;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  projectDir = await mkdtemp(join(tmpdir(), 'postbox-cron-restart-'));
  const migrations = join(projectDir, 'supabase', 'migrations');
  await mkdir(migrations, { recursive: true });
  await writeFile(join(migrations, '20260101000000_schedule.sql'), MIGRATION);
  options = { projectDir, port: 0, dbPort: 0, mailWebPort: 0, mailSmtpPort: 0 };
  if (adminUrl) {
    await admin(`create database ${dbName}`);
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    options.databaseUrl = url.toString();
  } else {
    options.dataDir = join(projectDir, '.postbox');
  }
});

afterAll(async () => {
  if (adminUrl) await admin(`drop database if exists ${dbName} with (force)`);
  await rm(projectDir, { recursive: true, force: true });
});

it('keeps jobs across a restart and fails the runs a stop cut short', async () => {
  const first = await startEmulator(options);
  let client = new pg.Client({ connectionString: first.dbUrl! });
  await client.connect();
  let runid: string;
  try {
    // What a crash in the middle of a run leaves behind.
    const inserted = await client.query<{ runid: string }>(
      `insert into cron.job_run_details (jobid, database, username, command, status, start_time)
       select jobid, database, username, command, 'running', now() from cron.job returning runid`,
    );
    runid = inserted.rows[0]!.runid;
  } finally {
    await client.end();
  }
  await first.stop();

  const second = await startEmulator(options);
  client = new pg.Client({ connectionString: second.dbUrl! });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select status, return_message from cron.job_run_details where runid = $1`,
      [runid],
    );
    expect(rows).toEqual([{ status: 'failed', return_message: 'server restarted' }]);
    await sleep(2500);
    const jobs = await client.query(`select jobname from cron.job`);
    expect(jobs.rows).toEqual([{ jobname: 'tick' }]);
    const ticks = await client.query<{ n: number }>('select count(*)::int n from public.ticks');
    expect(ticks.rows[0]!.n).toBeGreaterThan(0);
  } finally {
    await client.end();
    await second.stop();
  }
}, 90_000);

it.skipIf(!adminUrl)(
  'cancels a job still running on stop (native Postgres)',
  async () => {
    const emu = await startEmulator(options);
    const client = new pg.Client({ connectionString: emu.dbUrl! });
    await client.connect();
    try {
      await client.query(`select cron.schedule('sleepy', '1 seconds', 'select pg_sleep(60)')`);
      for (let i = 0; i < 100; i++) {
        const { rows } = await client.query(
          `select 1 from cron.job_run_details d join cron.job j using (jobid)
          where j.jobname = 'sleepy' and d.status = 'running'`,
        );
        if (rows.length) break;
        await sleep(100);
      }
      await client.query(`select cron.unschedule('sleepy')`);
    } finally {
      await client.end();
    }
    const started = Date.now();
    await emu.stop();
    expect(Date.now() - started).toBeLessThan(15_000);
    const check = new pg.Client({ connectionString: options.databaseUrl });
    await check.connect();
    try {
      const { rows } = await check.query(
        `select status, return_message from cron.job_run_details
        where command = 'select pg_sleep(60)' order by runid desc limit 1`,
      );
      expect(rows).toEqual([
        { status: 'failed', return_message: 'ERROR:  canceling statement due to user request\n' },
      ]);
    } finally {
      await check.end();
    }
  },
  60_000,
);
