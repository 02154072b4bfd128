// The pg_cron launcher and pg_net worker of the emulator, started once migrations have run.
import type { Db } from '../db/types.js';
import { startNetWorker, type NetWorker } from './net-worker.js';
import { startCronScheduler, type CronScheduler } from './scheduler.js';

export interface CronServiceOptions {
  db: Db;
  /** The emulator's own gateway URL: pg_net requests to `http://kong:8000` go there. */
  gatewayUrl?: string;
  /** How often due jobs are looked for (default 250 ms, so '1 seconds' jobs keep time). */
  tickMs?: number;
  /** Fallback re-read of cron.job when no change is notified (default 5 s). */
  reloadMs?: number;
  /** Fallback poll of net.http_request_queue when no NOTIFY arrives (default 5 s). */
  pollMs?: number;
  log?: (message: string) => void;
}

export interface CronService {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs only where the emulator's stand-ins are installed (db/bootstrap/60-cron.sql, 61-net.sql): a
 * server with the real pg_cron or pg_net has their own background workers, which must not be
 * doubled.
 */
export function createCronService(opts: CronServiceOptions): CronService {
  let scheduler: CronScheduler | null = null;
  let worker: NetWorker | null = null;
  return {
    async start() {
      const { rows } = await opts.db.query<{ cron: boolean; net: boolean }>(
        `select to_regprocedure('cron.__schedule_is_valid(text)') is not null
                  and not exists (select 1 from pg_extension where extname = 'pg_cron') as cron,
                to_regclass('net.http_request_queue') is not null
                  and not exists (select 1 from pg_extension where extname = 'pg_net') as net`,
      );
      if (rows[0]?.cron) {
        // As pg_cron's launcher does at start: runs cut short by a stop or crash are failed.
        await opts.db.query(
          `update cron.job_run_details set status = 'failed', return_message = 'server restarted'
           where status in ('starting', 'running')`,
        );
        scheduler = startCronScheduler(opts);
      }
      if (rows[0]?.net) worker = startNetWorker(opts);
    },
    async stop() {
      await Promise.all([scheduler?.stop(), worker?.stop()]);
      scheduler = null;
      worker = null;
    },
  };
}
