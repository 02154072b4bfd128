// The database over the Postgres wire protocol: dbUrl works with pg and psql, and PGlite's one session is shared fairly.
import { execFile } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../index.js';
import { openPglite, type PgliteDb } from './pglite.js';
import { startWireServer, type WireServer } from './wire.js';

const native = !!process.env.DATABASE_URL;
const psqlPath = await new Promise<string | null>((resolve) =>
  execFile('sh', ['-c', 'command -v psql'], (err, stdout) => resolve(err ? null : stdout.trim())),
);

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

describe('dbUrl', () => {
  let emu: RunningEmulator;
  const clients: pg.Client[] = [];
  const client = async () => {
    const c = await connect(emu.dbUrl!);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    emu = await startEmulator({
      memory: true,
      port: 0,
      dbPort: 0,
      mailWebPort: 0,
      mailSmtpPort: 0,
    });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    await emu?.stop();
  });

  it('is the wire server on PGlite, the throw-away database on a native server', () => {
    if (native) expect(emu.dbUrl).toMatch(/^postgres(ql)?:\/\/.+\/postbox_[0-9a-z]+_[0-9a-f]{8}$/);
    else expect(emu.dbUrl).toMatch(/^postgresql:\/\/postgres:postgres@127\.0\.0\.1:\d+\/postgres$/);
  });

  it('answers queries with parameters and keeps Postgres errors intact', async () => {
    const c = await client();
    const { rows } = await c.query('select $1::int + 1 as n, current_user as who', [41]);
    expect(rows).toEqual([{ n: 42, who: 'postgres' }]);
    await expect(c.query('select * from public.nope')).rejects.toMatchObject({
      code: '42P01',
      message: 'relation "public.nope" does not exist',
    });
    // The session is usable after an error.
    expect((await c.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('sees the platform objects and shares data with the emulator', async () => {
    const c = await client();
    await c.query('create table public.wire_shared (id int primary key)');
    await c.query('insert into public.wire_shared values (1), (2)');
    const seen = await emu.db.query('select count(*)::int as n from public.wire_shared');
    expect(seen.rows).toEqual([{ n: 2 }]);
    const buckets = await c.query("select to_regclass('storage.buckets') is not null as ok");
    expect(buckets.rows).toEqual([{ ok: true }]);
  });

  it('keeps a client transaction apart from the emulator until it commits', async () => {
    const c = await client();
    await c.query('create table public.wire_tx (id int)');
    await c.query('begin');
    await c.query('insert into public.wire_tx values (1)');
    let settled = false;
    const emulatorRead = emu.db
      .query<{ n: number }>('select count(*)::int as n from public.wire_tx')
      .finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // PGlite: the emulator waits for the session; native: it reads the committed state at once.
    if (!native) expect(settled).toBe(false);
    await c.query('commit');
    expect((await emulatorRead).rows).toEqual([{ n: native ? 0 : 1 }]);
  });

  it('queues concurrent clients instead of refusing them', async () => {
    const setup = await client();
    await setup.query('create table public.wire_counter (client int, step int)');
    const many = await Promise.all(Array.from({ length: 6 }, () => client()));
    await Promise.all(
      many.map(async (c, i) => {
        await c.query('begin');
        for (let step = 0; step < 3; step++) {
          await c.query('insert into public.wire_counter values ($1, $2)', [i, step]);
        }
        await c.query('commit');
      }),
    );
    const { rows } = await setup.query('select count(*)::int as n from public.wire_counter');
    expect(rows).toEqual([{ n: 18 }]);
  });

  it('does not leak a client session setting into the emulator after it disconnects', async () => {
    const c = await connect(emu.dbUrl!);
    await c.query('set role anon');
    await c.query('set search_path = storage');
    await c.end();
    await expect
      .poll(async () => (await emu.db.query('select current_user as who')).rows[0], {
        timeout: 5000,
      })
      .toEqual({ who: 'postgres' });
    const path = await emu.db.query("select current_setting('search_path') as path");
    expect(path.rows).toEqual([{ path: '"$user", public, extensions' }]);
  });

  it.skipIf(native)('refuses COPY FROM STDIN on PGlite instead of crashing it', async () => {
    const c = await client();
    await c.query('create table public.wire_copy (a int)');
    const refused = {
      code: '0A000',
      message:
        'COPY FROM STDIN is not supported by the embedded database (PGlite); use INSERT, or a native server via DATABASE_URL',
    };
    await expect(c.query('copy public.wire_copy from stdin')).rejects.toMatchObject(refused);
    // Extended protocol: the rest of the batch is skipped up to its Sync.
    await expect(
      c.query({ text: 'copy public.wire_copy from stdin', values: [1] }),
    ).rejects.toMatchObject(refused);
    expect((await c.query('select count(*)::int as n from public.wire_copy')).rows).toEqual([
      { n: 0 },
    ]);
    expect((await emu.db.query('select 1 as alive')).rows).toEqual([{ alive: 1 }]);
  });

  it.skipIf(!psqlPath)('works with psql', async () => {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        psqlPath!,
        [
          emu.dbUrl!,
          '-At',
          '-c',
          "select 'psql ' || (6 * 7)",
          '-c',
          "select count(*) from storage.buckets where id = 'media'",
        ],
        { timeout: 20_000 },
        (err, stdout, stderr) => (err ? reject(new Error(stderr || err.message)) : resolve(stdout)),
      ),
    );
    expect(out).toBe('psql 42\n1\n');
  });
});

describe.skipIf(native)('the PGlite wire server', () => {
  let db: PgliteDb;
  let wire: WireServer;

  beforeAll(async () => {
    db = await openPglite();
    wire = await startWireServer({ db, port: 0, idleInTransactionMs: 300 });
  }, 60_000);
  afterAll(async () => {
    await wire?.close();
    await db?.close();
  });

  it('ends a client idle in a transaction so the emulator is not starved', async () => {
    const c = await connect(wire.url);
    const errors: Error[] = [];
    c.on('error', (err) => errors.push(err));
    await c.query('create table idle_tx (id int)');
    await c.query('begin');
    await c.query('insert into idle_tx values (1)');
    const started = Date.now();
    const { rows } = await db.query('select count(*)::int as n from idle_tx');
    expect(rows).toEqual([{ n: 0 }]); // its open transaction was rolled back
    expect(Date.now() - started).toBeLessThan(5000);
    await expect.poll(() => errors.length).toBeGreaterThanOrEqual(1);
    expect(errors[0]).toMatchObject({
      code: '25P03',
      message: 'terminating connection due to idle-in-transaction timeout',
    });
    expect(db.pglite.isInTransaction()).toBe(false);
  });

  it('hands NOTIFY sent by a client to the emulator listeners', async () => {
    const got: string[] = [];
    const stop = await db.listen('wire_channel', (payload) => got.push(payload));
    const c = await connect(wire.url);
    await c.query("notify wire_channel, 'hello'");
    await c.end();
    await expect.poll(() => got).toEqual(['hello']);
    await stop();
  });
});
