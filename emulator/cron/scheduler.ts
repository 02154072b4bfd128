// pg_cron's launcher in the emulator process: reads cron.job every tick and runs due jobs.
import type { Db } from '../db/types.js';
import { runJob } from './run-job.js';
import { cronMatches, parseSchedule, ScheduleError, type Schedule } from './schedule.js';

interface JobRow {
  jobid: string;
  schedule: string;
  command: string;
  username: string;
  active: boolean;
}

interface JobState {
  scheduleText: string;
  schedule: Schedule | null;
  /** Interval jobs: when the last run was due. Cron jobs: the last minute looked at. */
  mark: number;
  /** Runs that came due while one was active (pg_cron's pendingRunCount). */
  pending: number;
  running: boolean;
}

export interface CronScheduler {
  stop(): Promise<void>;
}

const MINUTE = 60_000;

/**
 * Semantics copied from pg_cron's launcher: a job never overlaps itself (a run that comes due
 * while the previous one is active is queued and starts when it ends); cron schedules fire at
 * the start of each matching UTC minute, interval schedules every N seconds from when the job
 * was first seen; @reboot jobs run once when the scheduler starts; inactive jobs do not run.
 * New, changed and removed jobs are picked up on the next tick, without a restart.
 */
export function startCronScheduler(opts: {
  db: Db;
  tickMs?: number;
  reloadMs?: number;
  /** How long stop() lets running jobs finish before cancelling them (native Postgres only). */
  stopGraceMs?: number;
  log?: (message: string) => void;
}): CronScheduler {
  const { db } = opts;
  const log = opts.log ?? (() => undefined);
  const tickMs = opts.tickMs ?? 250;
  const reloadMs = opts.reloadMs ?? 5000;
  const stopGraceMs = opts.stopGraceMs ?? 3000;
  const jobs = new Map<string, JobState>();
  const runs = new Set<Promise<void>>();
  const pids = new Map<Promise<void>, number>();
  let firstTick = true;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> = Promise.resolve();

  const launch = (id: string, job: JobRow, state: JobState) => {
    state.running = true;
    const run = (async () => {
      const { rows } = await db.query<{ runid: string }>(
        `insert into cron.job_run_details (jobid, database, username, command, status, start_time)
         values ($1, current_database(), $2, $3, 'running', now()) returning runid`,
        [id, job.username, job.command],
      );
      const outcome = await runJob(db, job.username, job.command, (pid) => pids.set(run, pid));
      await db.query(
        `update cron.job_run_details set status = $2, return_message = $3, job_pid = $4,
           end_time = now() where runid = $1`,
        [rows[0]!.runid, outcome.status, outcome.message, outcome.pid],
      );
    })()
      .catch((err) => {
        if (!stopped) log(`cron job ${id} could not be run: ${(err as Error).message}`);
      })
      .finally(() => {
        state.running = false;
        runs.delete(run);
        pids.delete(run);
      });
    runs.add(run);
  };

  // cron.job is re-read when its trigger notifies a change, and every reloadMs in case a
  // notification was lost; between reads the schedule is evaluated from memory.
  let rows: JobRow[] = [];
  let dirty = true;
  let loadedAt = 0;
  let unlisten: (() => Promise<void>) | null = null;
  const listening = db
    .listen('postbox_pg_cron', () => {
      dirty = true;
    })
    .then((off) => {
      unlisten = off;
    })
    .catch((err) => log(`pg_cron scheduler cannot listen: ${(err as Error).message}`));

  const tick = async () => {
    const now = Date.now();
    if (dirty || now - loadedAt >= reloadMs) {
      dirty = false;
      loadedAt = now;
      rows = (
        await db.query<JobRow>(
          `select jobid, schedule, command, username, active from cron.job
           where database = current_database() order by jobid`,
        )
      ).rows;
    }
    const seen = new Set<string>();
    for (const job of rows) {
      seen.add(job.jobid);
      let state = jobs.get(job.jobid);
      if (!state || state.scheduleText !== job.schedule) {
        let schedule: Schedule | null = null;
        try {
          schedule = parseSchedule(job.schedule);
        } catch (err) {
          // pg_cron logs such rows (inserted around cron.schedule) and never runs them.
          if (!(err instanceof ScheduleError)) throw err;
          log(`invalid pg_cron schedule for job ${job.jobid}: ${job.schedule}`);
        }
        const mark = schedule?.kind === 'cron' ? Math.floor(now / MINUTE) * MINUTE : now;
        // A changed schedule starts afresh; a run in progress still blocks the next one.
        const fresh = { scheduleText: job.schedule, schedule, mark, pending: 0 };
        if (state) Object.assign(state, fresh);
        else jobs.set(job.jobid, (state = { ...fresh, running: false }));
        if (schedule?.kind === 'reboot' && firstTick) state.pending = 1;
      }
      const { schedule } = state;
      if (!job.active || !schedule) {
        state.pending = 0;
        continue;
      }
      if (schedule.kind === 'seconds' && now - state.mark >= schedule.seconds * 1000) {
        // Interval runs do not pile up behind a slow one: at most one waits.
        state.pending = 1;
        state.mark = now;
      } else if (schedule.kind === 'cron') {
        for (let minute = state.mark + MINUTE; minute <= now; minute += MINUTE) {
          if (cronMatches(schedule, new Date(minute))) state.pending++;
          state.mark = minute;
        }
      }
      if (state.pending > 0 && !state.running && !stopped) {
        state.pending--;
        launch(job.jobid, job, state);
      }
    }
    for (const id of jobs.keys()) if (!seen.has(id)) jobs.delete(id);
    firstTick = false;
  };

  const loop = () => {
    if (stopped) return;
    ticking = tick()
      .catch((err) => log(`pg_cron scheduler tick failed: ${(err as Error).message}`))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, tickMs);
      });
  };
  loop();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await ticking;
      // Let running jobs finish and record their outcome while the database is still open. On a
      // native server, jobs still running after a grace period are cancelled (pg_cancel_backend);
      // PGlite cannot interrupt a statement, so there the stop waits.
      const settled = Promise.all([...runs]);
      const late = await Promise.race([
        settled.then(() => false),
        new Promise<boolean>((done) => setTimeout(() => done(true), stopGraceMs).unref()),
      ]);
      if (late && db.kind === 'postgres') {
        for (const pid of pids.values()) {
          await db.query('select pg_cancel_backend($1)', [pid]).catch(() => undefined);
        }
      }
      await settled;
      await listening;
      if (unlisten) await unlisten();
    },
  };
}
