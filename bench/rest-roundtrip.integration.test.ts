// Smoke test of the rest-roundtrip benchmark on the current backend with a handful of samples: every
// case measures on every side (so REST really served the fixture), and the results file is complete.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { machineInfo, writeResult } from './report.js';
import { restRoundtrip } from './rest-roundtrip.js';

describe('rest-roundtrip benchmark', () => {
  it('measures all three cases through REST, directly and bare, and writes the results', async () => {
    const options = { samples: 5, warmup: 1 };
    const result = await restRoundtrip.run({ ...options, log: () => undefined });

    expect(result.backend).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    expect(result.measurements.map((m) => `${m.case}/${m.side}`)).toEqual([
      'select by primary key/rest',
      'select by primary key/direct',
      'select by primary key/bare',
      'filtered list of 50/rest',
      'filtered list of 50/direct',
      'filtered list of 50/bare',
      'insert (return=minimal)/rest',
      'insert (return=minimal)/direct',
      'insert (return=minimal)/bare',
    ]);
    for (const m of result.measurements) {
      expect(m.error, `${m.case}/${m.side}`).toBeNull();
      expect(m.stats?.n).toBe(5);
      expect(m.stats!.p50).toBeGreaterThan(0);
      expect(m.stats!.p99).toBeGreaterThanOrEqual(m.stats!.p50);
    }
    expect(result.goals).toHaveLength(3);
    for (const g of result.goals) expect(typeof g.met).toBe('boolean');

    const dir = await mkdtemp(join(tmpdir(), 'postbox-bench-'));
    try {
      const file = await writeResult(
        pathToFileURL(dir + '/'),
        restRoundtrip,
        options,
        machineInfo(),
        result,
      );
      const written = JSON.parse(await readFile(file, 'utf8'));
      expect(file.pathname).toMatch(new RegExp(`rest-roundtrip-${result.backend}\\.json$`));
      expect(written.machine).toMatchObject({ backend: result.backend, node: process.version });
      expect(written.machine.cpuCount).toBeGreaterThan(0);
      expect(written.measurements).toHaveLength(9);
      expect(Object.keys(written.measurements[0].stats)).toEqual(
        expect.arrayContaining(['n', 'mean', 'p50', 'p99']),
      );
      expect(written.goals).toEqual(result.goals);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
