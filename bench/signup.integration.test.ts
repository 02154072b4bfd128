// Smoke test of the signup benchmark with 1 and 3 clients and a few requests: every side succeeds,
// each request wrote its own subscriber, and throughput and ratios are filled in.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../emulator/index.js';
import { runSignup, signup } from './signup.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({
    memory: true,
    port: 0,
    dbPort: null,
    mailWebPort: 0,
    mailSmtpPort: 0,
    projectDir: fileURLToPath(new URL('..', import.meta.url)),
  });
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

describe('signup benchmark', () => {
  it('measures subscribe and both REST sides at each concurrency', async () => {
    const result = await runSignup({
      samples: 4,
      warmup: 1,
      clients: [1, 3],
      emu,
      log: () => undefined,
    });
    expect(result.measurements.map((m) => `${m.case}/${m.side}`)).toEqual([
      '1 client/subscribe',
      '1 client/REST rpc',
      '1 client/REST insert',
      '3 clients/subscribe',
      '3 clients/REST rpc',
      '3 clients/REST insert',
    ]);
    for (const m of result.measurements) {
      expect(m.error, `${m.case}/${m.side}`).toBeNull();
      expect(m.stats?.n).toBe(4);
      expect(m.throughput).toBeGreaterThan(0);
    }
    expect(result.comparisons).toHaveLength(4);
    for (const c of result.comparisons) expect(c.p50Ratio).toBeGreaterThan(0);
    // One warm-up call, then (1 warm-up + 4 samples) per side and concurrency, each a new address.
    const { rows } = await emu.db.query<{ n: number }>(
      "select count(*)::int as n from public.subscribers where email like 'bench-%'",
    );
    expect(rows[0]!.n).toBe(1 + 2 * 3 * 5);
  }, 120_000);

  it('is skipped without native Postgres, with the reason', () => {
    const saved = process.env.DATABASE_URL;
    delete process.env.DATABASE_URL;
    expect(signup.skip?.()).toMatch(/DATABASE_URL/);
    process.env.DATABASE_URL = 'postgres://example';
    expect(signup.skip?.()).toBeNull();
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  });
});
