// The one database session under concurrent use: no interleaved protocol exchanges, on PGlite or native.
import { randomUUID } from 'node:crypto';
import { protocol } from '@electric-sql/pglite';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../index.js';
import { signJwt } from '../keys.js';
import { Inbox, subscribed } from '../realtime/test-support.js';
import { openNative } from './native.js';
import { openPglite } from './pglite.js';

const DATABASE_URL = process.env.DATABASE_URL;

let emu: RunningEmulator;
const clients: SupabaseClient[] = [];

beforeAll(async () => {
  // dbPort 0: on PGlite a wire server shares the one session with the emulator's own queries.
  emu = await startEmulator({ memory: true, port: 0, dbPort: 0, mailWebPort: 0, mailSmtpPort: 0 });
  await emu.db.exec(`
    create table public.race (
      id bigserial primary key,
      owner uuid,
      n int4 not null,
      body text
    );
    alter table public.race enable row level security;
    grant select, insert on public.race to authenticated, service_role;
    grant usage on sequence public.race_id_seq to authenticated;
    create policy "owners read" on public.race for select to authenticated
      using (owner = (select auth.uid()));
    create policy "owners write" on public.race for insert to authenticated
      with check (owner = (select auth.uid()));
    alter publication supabase_realtime add table public.race;
    create table public.race_ticks (id bigserial primary key, at timestamptz default now());
  `);
  await emu.db.query(
    `select cron.schedule('race-tick', '1 seconds', 'insert into public.race_ticks default values')`,
  );
}, 60_000);

afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
  await emu?.stop();
});

async function userClient(sub: string): Promise<SupabaseClient> {
  const now = Math.floor(Date.now() / 1000);
  const token = await signJwt({
    role: 'authenticated',
    aud: 'authenticated',
    sub,
    iat: now,
    exp: now + 3600,
  });
  const c = createClient(emu.url, emu.keys.publishable, {
    accessToken: async () => token,
    auth: { persistSession: false, autoRefreshToken: false },
  });
  clients.push(c);
  await c.realtime.setAuth();
  return c;
}

type Change = { new: Record<string, unknown> };

describe('one database session under concurrent load', () => {
  it('serves REST, realtime, pg_cron and a wire client at once without protocol errors', async () => {
    const users = await Promise.all(
      [0, 1, 2].map(async () => {
        const id = randomUUID();
        const c = await userClient(id);
        const inbox = new Inbox<Change>();
        await subscribed(
          c.channel(randomUUID()).on(
            'postgres_changes' as never,
            {
              event: 'INSERT',
              schema: 'public',
              table: 'race',
              filter: `owner=eq.${id}`,
            } as never,
            (p: Change) => inbox.push(p),
          ),
        );
        return { id, c, inbox };
      }),
    );
    const errors: string[] = [];
    const wire = emu.dbUrl ? new pg.Client({ connectionString: emu.dbUrl }) : null;
    wire?.on('error', (err) => errors.push(`wire client: ${err.message}`));
    await wire?.connect();

    const until = Date.now() + 4000;
    const writes = new Map<string, number>();
    const restLoop = async (u: (typeof users)[number], loop: number) => {
      let n = loop * 100_000;
      while (Date.now() < until) {
        n++;
        const ins = await u.c.from('race').insert({ owner: u.id, n, body: `w${n}` });
        if (ins.error) errors.push(`insert: ${ins.error.code} ${ins.error.message}`);
        else writes.set(u.id, (writes.get(u.id) ?? 0) + 1);
        const read = await u.c.from('race').select('n').eq('n', n);
        if (read.error) errors.push(`select: ${read.error.code} ${read.error.message}`);
        else if (JSON.stringify(read.data) !== JSON.stringify([{ n }]))
          errors.push(`select: ${JSON.stringify(read.data)} for n = ${n}`);
      }
    };
    const wireLoop = async () => {
      if (!wire) return;
      let i = 0;
      while (Date.now() < until) {
        i++;
        try {
          const { rows } = await wire.query<{ v: number }>('select $1::int4 + 1 as v', [i]);
          if (rows[0]?.v !== i + 1) errors.push(`wire: ${JSON.stringify(rows)} for ${i}`);
          await wire.query('begin');
          await wire.query('select count(*) from public.race where n > $1', [0]);
          await wire.query('commit');
        } catch (err) {
          errors.push(`wire: ${(err as Error).message}`);
        }
      }
    };
    await Promise.all([
      ...users.map((u) => restLoop(u, 1)),
      ...users.map((u) => restLoop(u, 2)),
      wireLoop(),
    ]);
    await wire?.end();
    expect(errors).toEqual([]);

    // Every write reached its owner's subscription; the cron job kept running meanwhile.
    for (const u of users) {
      await u.inbox.count(writes.get(u.id) ?? 0, 10_000);
      for (const change of u.inbox.items) expect(change.new.owner).toBe(u.id);
    }
    const { rows } = await emu.db.query<{ n: string }>(
      `select count(*) as n from public.race_ticks`,
    );
    expect(Number(rows[0]!.n)).toBeGreaterThan(0);
    const runs = await emu.db.query<{ status: string; return_message: string }>(
      `select status, return_message from cron.job_run_details where status <> 'succeeded'`,
    );
    expect(runs.rows).toEqual([]);
  }, 60_000);
});

describe('the PGlite session lock', () => {
  it("keeps a query started inside a transaction out of the next holder's exchange", async () => {
    const db = await openPglite();
    try {
      // Fired inside the transaction and not awaited: it inherits the hold, then waits for
      // PGlite's own transaction mutex, so it only runs once the transaction has committed.
      let late: Promise<unknown> = Promise.resolve();
      await db.transaction(async (tx) => {
        late = db.query<{ v: number }>('select $1::int4 as v', [41]);
        await tx.query('select 1');
      });
      // The next holder is a wire client: one extended-protocol message per turn, as wire.ts
      // sends them (PGlite's mutexes do not guard execProtocolRawStream).
      const release = await db.lock.acquire();
      const output: Buffer[] = [];
      try {
        for (const message of [
          protocol.serialize.parse({ text: 'select 2 as w' }),
          protocol.serialize.bind({ values: [] }),
          protocol.serialize.execute({}),
          protocol.serialize.sync(),
        ]) {
          await db.pglite.execProtocolRawStream(message, {
            onRawData: (data) => output.push(Buffer.from(data)),
          });
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      } finally {
        release();
      }
      await expect(late).resolves.toMatchObject({ rows: [{ v: 41 }] });
      // ParseComplete, BindComplete, DataRow '2', CommandComplete, ReadyForQuery idle: no error.
      const wire = Buffer.concat(output);
      expect(wire.toString('latin1')).toContain('SELECT 1');
      expect(wire.toString('latin1')).not.toContain('08P01');
      expect(wire.subarray(-6).toString('latin1')).toBe('Z\u0000\u0000\u0000\u0005I');
    } finally {
      await db.close();
    }
  }, 30_000);
});

describe.runIf(DATABASE_URL)('the native LISTEN connection', () => {
  it('sends concurrent LISTEN and UNLISTEN one at a time', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    const db = await openNative(DATABASE_URL!);
    try {
      const channels = Array.from({ length: 8 }, (_, i) => `postbox_race_${i}`);
      const got = new Inbox<string>();
      const stops = await Promise.all(channels.map((c) => db.listen(c, (p) => got.push(p))));
      await Promise.all(channels.map((c) => db.query('select pg_notify($1, $1)', [c])));
      await got.count(channels.length);
      expect([...got.items].sort()).toEqual([...channels].sort());
      await Promise.all(stops.map((stop) => stop()));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(warnings.filter((w) => w.includes('already executing a query'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await db.close();
    }
  });
});
