// pg_cron stand-in end to end: a hosted-style migration schedules jobs, the emulator runs them.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestProjectWithClient } from '../test-project.js';
import { parseSchedule } from './schedule.js';

// The same migration works on hosted Supabase, where both extensions are installable.
const MIGRATION = `
create extension if not exists pg_cron with schema pg_catalog;
create extension if not exists pg_net with schema extensions;
grant usage on schema cron to postgres;

create table public.ticks (id bigserial primary key, at timestamptz not null default now());

select cron.schedule('tick', '1 seconds', $$insert into public.ticks default values$$);
select cron.schedule('broken', '1 seconds', $$insert into public.missing default values$$);
`;

let project: Awaited<ReturnType<typeof startTestProjectWithClient>>;
let client: pg.Client;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function sqlError(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    return err as { code?: string; message: string; hint?: string };
  }
  throw new Error('expected the statement to fail');
}

const count = async (sql: string, params: unknown[] = []) =>
  Number((await client.query<{ n: string }>(sql, params)).rows[0]!.n);

beforeAll(async () => {
  project = await startTestProjectWithClient('cron', {
    'migrations/20260101000000_schedule.sql': MIGRATION,
  });
  ({ client } = project);
}, 60_000);

afterAll(async () => {
  await project?.stop();
});

describe('pg_cron stand-in', () => {
  it('lets the migration create the extensions and schedule its jobs', async () => {
    const { rows } = await client.query(
      `select jobname, schedule, command, nodename, database = current_database() as here,
              username, active from cron.job order by jobid`,
    );
    expect(rows).toEqual([
      {
        jobname: 'tick',
        schedule: '1 seconds',
        command: 'insert into public.ticks default values',
        nodename: 'localhost',
        here: true,
        username: 'postgres',
        active: true,
      },
      {
        jobname: 'broken',
        schedule: '1 seconds',
        command: 'insert into public.missing default values',
        nodename: 'localhost',
        here: true,
        username: 'postgres',
        active: true,
      },
    ]);
  });

  it("runs a '1 seconds' job every second and records each run as succeeded", async () => {
    await waitFor(
      'two ticks',
      async () => (await count('select count(*) n from public.ticks')) >= 2,
    );
    const { rows } = await client.query(
      `select d.status, d.return_message, d.command, d.username, d.database = current_database() as here,
              d.start_time <= d.end_time as ordered, d.job_pid is not null as has_pid
         from cron.job_run_details d join cron.job j using (jobid)
        where j.jobname = 'tick' and d.status <> 'running' order by d.runid limit 2`,
    );
    expect(rows).toEqual(
      Array(2).fill({
        status: 'succeeded',
        return_message: 'INSERT 0 1',
        command: 'insert into public.ticks default values',
        username: 'postgres',
        here: true,
        ordered: true,
        has_pid: true,
      }),
    );
  });

  it('records a failing command as failed with the error, as libpq reports it', async () => {
    const row = await waitFor('a failed run', async () => {
      const { rows } = await client.query(
        `select d.status, d.return_message from cron.job_run_details d join cron.job j using (jobid)
          where j.jobname = 'broken' and d.status <> 'running' limit 1`,
      );
      return rows[0];
    });
    expect(row).toEqual({
      status: 'failed',
      return_message: 'ERROR:  relation "public.missing" does not exist\n',
    });
  });

  it('stops running a job once it is unscheduled, by name or by id', async () => {
    const { rows } = await client.query(`select jobid from cron.job where jobname = 'broken'`);
    expect(
      (await client.query('select cron.unschedule($1::bigint) as ok', [rows[0]!.jobid])).rows,
    ).toEqual([{ ok: true }]);
    expect((await client.query(`select cron.unschedule('tick') as ok`)).rows).toEqual([
      { ok: true },
    ]);
    await sleep(1500); // a run already under way may still finish
    const before = await count('select count(*) n from public.ticks');
    await sleep(2500);
    expect(await count('select count(*) n from public.ticks')).toBe(before);
    expect(await count('select count(*) n from cron.job')).toBe(0);
  });

  it("answers pg_cron's errors for unknown jobs and invalid schedules", async () => {
    const byName = await sqlError(client.query(`select cron.unschedule('nope')`));
    expect(byName).toMatchObject({
      code: 'XX000',
      message: "could not find valid entry for job 'nope'",
    });
    const byId = await sqlError(client.query(`select cron.unschedule(4242)`));
    expect(byId).toMatchObject({
      code: 'XX000',
      message: 'could not find valid entry for job 4242',
    });
    for (const schedule of ['60 seconds', '* * * *', 'every minute', '5/10 * * * *']) {
      const err = await sqlError(
        client.query(`select cron.schedule('x', $1, 'select 1')`, [schedule]),
      );
      expect(err).toMatchObject({
        code: '22023',
        message: `invalid schedule: ${schedule}`,
        hint: "Use cron format (e.g. 5 4 * * *), or interval format '[1-59] seconds'",
      });
    }
    expect(await count(`select count(*) n from cron.job`)).toBe(0);
  });

  it("refuses NULL names, schedules and commands in pg_cron's words", async () => {
    const calls: Array<[string, string]> = [
      [`select cron.schedule(null, '5 seconds', 'select 1')`, 'job_name can not be NULL'],
      [`select cron.schedule('n', null, 'select 1')`, 'schedule can not be NULL'],
      [`select cron.schedule('n', '5 seconds', null)`, 'command can not be NULL'],
      [`select cron.schedule(null, 'select 1')`, 'schedule can not be NULL'],
      [`select cron.schedule('5 seconds', null)`, 'command can not be NULL'],
      [
        `select cron.schedule_in_database(null, '5 seconds', 'select 1', current_database())`,
        'job_name can not be NULL',
      ],
      [
        `select cron.schedule_in_database('n', null, 'select 1', current_database())`,
        'schedule can not be NULL',
      ],
      [
        `select cron.schedule_in_database('n', '5 seconds', null, current_database())`,
        'command can not be NULL',
      ],
      [`select cron.alter_job(null, active := false)`, 'job_id can not be NULL'],
    ];
    for (const [sql, message] of calls) {
      expect(await sqlError(client.query(sql)), sql).toMatchObject({ code: 'XX000', message });
    }
    expect(await count(`select count(*) n from cron.job`)).toBe(0);
  });

  it("answers alter_job's errors in pg_cron's words", async () => {
    const missing = await sqlError(client.query('select cron.alter_job(424242, active := false)'));
    expect(missing).toMatchObject({
      code: 'XX000',
      message: "Job 424242 does not exist or you don't own it",
    });
    const { rows } = await client.query(
      `select cron.schedule('idle', '59 seconds', 'select 1') as id`,
    );
    const nothing = await sqlError(client.query('select cron.alter_job($1)', [rows[0].id]));
    expect(nothing).toMatchObject({
      code: 'XX000',
      message: 'no updates specified',
      hint: 'You must specify at least one job attribute to change when calling alter_job',
    });
    await client.query(`select cron.unschedule('idle')`);
  });

  it('accepts exactly the schedules the scheduler can run', async () => {
    const schedules = [
      '1 seconds',
      '59 seconds',
      '0 seconds',
      '60 seconds',
      '7 second',
      '10 Seconds',
      '5seconds',
      '* * * * *',
      '*/5 * * * *',
      '0 10 * * *',
      '0,30 9-17/4 * jan-mar mon-fri',
      '0 0 $ * *',
      '0 0 1,$ * *',
      '0 0 * * 7',
      '0 0 * * 8',
      '5/10 * * * *',
      '*/0 * * * *',
      '61 * * * *',
      '* * * *',
      '* * * * * *',
      '@daily',
      '@hourly',
      '@reboot',
      '@every 5m',
      'mon * * * *',
      '',
    ];
    for (const schedule of schedules) {
      let runnable = true;
      try {
        parseSchedule(schedule);
      } catch {
        runnable = false;
      }
      const accepted = await client
        .query(`select cron.schedule('probe', $1, 'select 1')`, [schedule])
        .then(() => true)
        .catch(() => false);
      expect(accepted, schedule).toBe(runnable);
    }
    await client.query(`select cron.unschedule('probe')`);
  });

  it('upserts by name, picks up new and changed jobs without a restart, honours active', async () => {
    await client.query('create table public.marks (job text, at timestamptz default now())');
    const first = await client.query(
      `select cron.schedule('mark', '59 seconds', $$insert into public.marks (job) values ('a')$$) as id`,
    );
    const again = await client.query(
      `select cron.schedule('mark', '1 seconds', $$insert into public.marks (job) values ('b'); select 1$$) as id`,
    );
    expect(again.rows[0].id).toBe(first.rows[0].id);
    await waitFor(
      'a run of the changed job',
      async () => (await count(`select count(*) n from public.marks where job = 'b'`)) > 0,
    );
    expect(await count(`select count(*) n from public.marks where job = 'a'`)).toBe(0);
    const { rows } = await client.query(
      `select return_message from cron.job_run_details where jobid = $1 and status = 'succeeded' limit 1`,
      [first.rows[0].id],
    );
    expect(rows).toEqual([{ return_message: '1 row' }]);

    await client.query('select cron.alter_job($1, active := false)', [first.rows[0].id]);
    await sleep(1500);
    const paused = await count(`select count(*) n from public.marks`);
    await sleep(2000);
    expect(await count(`select count(*) n from public.marks`)).toBe(paused);
    await client.query(`select cron.unschedule('mark')`);
  });

  it('runs a lone VACUUM outside a transaction block, as pg_cron sends it', async () => {
    await client.query(`select cron.schedule('vacuum', '1 seconds', 'vacuum public.ticks')`);
    const row = await waitFor('a vacuum run', async () => {
      const { rows } = await client.query(
        `select d.status, d.return_message from cron.job_run_details d join cron.job j using (jobid)
          where j.jobname = 'vacuum' and d.status <> 'running' limit 1`,
      );
      return rows[0];
    });
    await client.query(`select cron.unschedule('vacuum')`);
    expect(row).toEqual({ status: 'succeeded', return_message: 'VACUUM' });
  });

  it('never runs a job while its previous run is still active', async () => {
    await client.query(`select cron.schedule('slow', '1 seconds', 'select pg_sleep(1.5)')`);
    const runs = await waitFor('three finished slow runs', async () => {
      const { rows } = await client.query<{ start: string; end: string }>(
        `select extract(epoch from start_time)::float8 as start, extract(epoch from end_time)::float8 as end
           from cron.job_run_details d join cron.job j using (jobid)
          where j.jobname = 'slow' and d.status = 'succeeded' order by runid`,
      );
      return rows.length >= 3 && rows;
    });
    await client.query(`select cron.unschedule('slow')`);
    for (let i = 1; i < runs.length; i++) {
      expect(Number(runs[i]!.start)).toBeGreaterThanOrEqual(Number(runs[i - 1]!.end));
    }
  }, 20_000);
});
