// Smoke test of the realtime-latency benchmark with 1 and 3 clients and a few inserts: every client
// gets every row on both tables, a non-member gets nothing from the RLS table, and the file is complete.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { realtimeLatency, runRealtimeLatency } from './realtime-latency.js';
import { machineInfo, writeResult } from './report.js';

describe('realtime-latency benchmark', () => {
  it('measures delivery to every client without and with RLS, and writes the results', async () => {
    const options = { samples: 3, warmup: 1 };
    const result = await runRealtimeLatency({
      ...options,
      sizes: [1, 3],
      outsider: true,
      log: () => undefined,
    });

    expect(result.backend).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    const sides = ['no RLS', 'no RLS, last client', 'no RLS, insert'];
    const all = [...sides, ...sides.map((s) => s.replace('no RLS', 'RLS'))];
    expect(result.measurements.map((m) => `${m.case}/${m.side}`)).toEqual([
      ...all.map((s) => `1 client/${s}`),
      ...all.map((s) => `3 clients/${s}`),
    ]);
    for (const m of result.measurements) {
      expect(m.error, `${m.case}/${m.side}`).toBeNull();
      // "each client" counts one delivery per client and insert; the others one per insert.
      const clients = m.case.startsWith('3') && !m.side.includes(',') ? 3 : 1;
      expect(m.stats?.n, `${m.case}/${m.side}`).toBe(3 * clients);
      expect(m.stats!.min).toBeGreaterThanOrEqual(0);
      expect(m.stats!.p99).toBeGreaterThanOrEqual(m.stats!.p50);
    }
    // The slowest client of an insert is never faster than the median delivery.
    for (const c of ['1 client', '3 clients']) {
      const stat = (side: string) =>
        result.measurements.find((m) => m.case === c && m.side === side)!.stats!;
      expect(stat('RLS, last client').max).toBeGreaterThanOrEqual(stat('RLS').p50);
    }
    expect(result.comparisons.map((c) => [c.case, c.numerator, c.denominator])).toEqual([
      ['1 client', 'RLS', 'no RLS'],
      ['3 clients', 'RLS', 'no RLS'],
    ]);
    for (const c of result.comparisons) expect(c.p50Ratio).toBeGreaterThan(0);

    const dir = await mkdtemp(join(tmpdir(), 'postbox-bench-'));
    try {
      const file = await writeResult(
        pathToFileURL(dir + '/'),
        realtimeLatency,
        options,
        machineInfo(),
        result,
      );
      const written = JSON.parse(await readFile(file, 'utf8'));
      expect(file.pathname).toMatch(new RegExp(`realtime-latency-${result.backend}\\.json$`));
      expect(written.machine.loadAverage1m).toEqual(expect.any(Number));
      expect(written.measurements).toHaveLength(12);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
