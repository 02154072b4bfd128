// hit_rate_limit (migration 20261124030100), the SPEC §9 limits behind subscribe: a sliding window,
// so no stretch of the window ever allows more than the limit (fixed windows let twice the limit
// through around a window's end), a refused attempt is not counted and is told exactly how long to
// wait, and (on native Postgres, where sessions overlap) concurrent attempts never overshoot.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { sql, startFunctionsEmulator } from '../functions/kit';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startFunctionsEmulator();
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

const key = () => `rl-${randomUUID().slice(0, 8)}`;

async function hit(k: string, limit = 5, windowSeconds = 600): Promise<number> {
  const [row] = await sql<{ wait: number }>(
    emu,
    `select public.hit_rate_limit('test', $1, $2, $3) as wait`,
    [k, limit, windowSeconds],
  );
  return row!.wait;
}

/** Attempts allowed `secondsAgo` seconds ago, as if made then. */
async function earlier(k: string, secondsAgo: number[]): Promise<void> {
  for (const s of secondsAgo) {
    await sql(
      emu,
      `insert into private.rate_limits (bucket, key, at)
       values ('test', $1, clock_timestamp() - make_interval(secs => $2))`,
      [k, s],
    );
  }
}

const counted = async (k: string) =>
  Number(
    (
      await sql<{ n: string }>(
        emu,
        `select count(*) as n from private.rate_limits where key = $1`,
        [k],
      )
    )[0]!.n,
  );

describe('hit_rate_limit', () => {
  it('allows the limit, refuses the next, and does not count the refusal', async () => {
    const k = key();
    for (let i = 0; i < 5; i++) expect(await hit(k)).toBe(0);
    const wait = await hit(k);
    expect(wait).toBeGreaterThanOrEqual(599);
    expect(wait).toBeLessThanOrEqual(600);
    expect(await hit(k)).toBeGreaterThan(0);
    expect(await counted(k)).toBe(5);
  });

  it('counts every attempt of the last window, wherever the clock stands', async () => {
    // Five attempts spread over the last 9 min 50 s: with fixed windows some would have fallen
    // into the window before and a sixth would pass; in a sliding window all five still count.
    const k = key();
    await earlier(k, [590, 450, 300, 120, 1]);
    const wait = await hit(k);
    // The oldest leaves the window in about 10 s, and then one more is allowed.
    expect(wait).toBeGreaterThanOrEqual(9);
    expect(wait).toBeLessThanOrEqual(11);
    await sql(
      emu,
      `update private.rate_limits set at = at - interval '11 seconds' where key = $1`,
      [k],
    );
    expect(await hit(k)).toBe(0);
    expect(await hit(k)).toBeGreaterThan(0);
  });

  it('forgets attempts older than the window and keeps keys and buckets apart', async () => {
    const k = key();
    await earlier(k, [601, 700, 900, 1200, 3000, 5000]);
    expect(await hit(k)).toBe(0);
    const other = key();
    for (let i = 0; i < 5; i++) expect(await hit(other)).toBe(0);
    expect(await hit(other)).toBeGreaterThan(0);
    const [row] = await sql<{ wait: number }>(
      emu,
      `select public.hit_rate_limit('another bucket', $1, 5, 600) as wait`,
      [other],
    );
    expect(row!.wait).toBe(0);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'lets exactly the limit through when attempts arrive at once',
    async () => {
      const k = key();
      const clients = await Promise.all(
        Array.from({ length: 12 }, async () => {
          const c = new pg.Client({ connectionString: emu.dbUrl! });
          await c.connect();
          return c;
        }),
      );
      try {
        const waits = await Promise.all(
          clients.map(async (c) => {
            const { rows } = await c.query<{ wait: number }>(
              `select public.hit_rate_limit('test', $1, 5, 600) as wait`,
              [k],
            );
            return rows[0]!.wait;
          }),
        );
        expect(waits.filter((w) => w === 0)).toHaveLength(5);
        expect(await counted(k)).toBe(5);
      } finally {
        await Promise.all(clients.map((c) => c.end()));
      }
    },
  );
});
