// Native-server mode: throw-away databases of crashed runs are dropped, and LISTEN survives a lost connection.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../index.js';
import { tempDatabaseCreatedAt } from './open.js';

const DATABASE_URL = process.env.DATABASE_URL;
const PORTS = { port: 0, dbPort: null, mailWebPort: 0, mailSmtpPort: 0 } as const;

const nameAt = (ms: number) => `postbox_${ms.toString(36)}_${randomBytes(4).toString('hex')}`;

function urlOf(database: string): string {
  const url = new URL(DATABASE_URL!);
  url.pathname = `/${database}`;
  return url.toString();
}

describe('tempDatabaseCreatedAt', () => {
  it('reads the creation time from throw-away database names only', () => {
    expect(tempDatabaseCreatedAt(nameAt(1_700_000_000_000))).toBe(1_700_000_000_000);
    expect(tempDatabaseCreatedAt('postbox')).toBeNull();
    expect(tempDatabaseCreatedAt('postbox_prod')).toBeNull();
    expect(tempDatabaseCreatedAt('postgres')).toBeNull();
  });
});

describe.runIf(DATABASE_URL)('on a native server', () => {
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  const made: string[] = [];
  let emu: RunningEmulator | undefined;
  let holder: pg.Client | undefined;

  afterAll(async () => {
    await holder?.end();
    await emu?.stop();
    for (const name of made) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('drops stale throw-away databases at open, but not recent or busy ones', async () => {
    await admin.connect();
    const day = 24 * 60 * 60 * 1000;
    const stale = nameAt(Date.now() - day);
    const busy = nameAt(Date.now() - day);
    const recent = nameAt(Date.now() - 60_000);
    for (const name of [stale, busy, recent]) {
      made.push(name);
      await admin.query(`create database ${name}`);
    }
    holder = new pg.Client({ connectionString: urlOf(busy) });
    await holder.connect();

    emu = await startEmulator({ memory: true, ...PORTS });
    const { rows } = await admin.query<{ datname: string }>(
      'select datname from pg_database where datname = any($1)',
      [[stale, busy, recent]],
    );
    expect(rows.map((r) => r.datname).sort()).toEqual([busy, recent].sort());
  }, 60_000);

  it('listens again after its LISTEN connection is lost', async () => {
    const got: string[] = [];
    await emu!.db.listen('native_reconnect', (payload) => got.push(payload));
    const { rows } = await emu!.db.query<{ n: number }>(
      `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
       where datname = current_database() and query ilike 'listen%'`,
    );
    expect(rows[0]!.n).toBeGreaterThanOrEqual(1);
    await expect
      .poll(
        async () => {
          await emu!.db.query("select pg_notify('native_reconnect', 'back')");
          return got.includes('back');
        },
        { timeout: 10_000, interval: 300 },
      )
      .toBe(true);
  }, 30_000);
});
