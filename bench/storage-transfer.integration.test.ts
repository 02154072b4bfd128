// Smoke test of the storage-transfer benchmark with a 0.1 MB file and two samples: uploads,
// downloads and both renders succeed through supabase-js, every side is measured, the file is complete.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { machineInfo, writeResult } from './report.js';
import { runStorageTransfer, storageTransfer } from './storage-transfer.js';

describe('storage-transfer benchmark', () => {
  it('measures upload, download and render against disk and sharp, and writes the results', async () => {
    const options = { samples: 2, warmup: 1 };
    const result = await runStorageTransfer({ ...options, sizesMb: [0.1], log: () => undefined });

    expect(result.backend).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    expect(result.measurements.map((m) => `${m.case}/${m.side}`)).toEqual([
      'upload 0.1 MB/storage',
      'upload 0.1 MB/disk',
      'download 0.1 MB/storage',
      'download 0.1 MB/disk',
      'render 2000 px JPEG → 640 px webp/storage',
      'render 2000 px JPEG → 640 px webp/sharp',
      'render 2000 px JPEG → 640 px jpeg/storage',
      'render 2000 px JPEG → 640 px jpeg/sharp',
    ]);
    for (const m of result.measurements) {
      expect(m.error, `${m.case}/${m.side}`).toBeNull();
      expect(m.stats?.n).toBe(2);
      expect(m.stats!.p50).toBeGreaterThan(0);
    }
    expect(result.comparisons.map((c) => `${c.numerator}/${c.denominator}`)).toEqual([
      'storage/disk',
      'storage/disk',
      'storage/sharp',
      'storage/sharp',
    ]);
    for (const c of result.comparisons) expect(c.p50Ratio).toBeGreaterThan(0);

    const dir = await mkdtemp(join(tmpdir(), 'postbox-bench-'));
    try {
      const file = await writeResult(
        pathToFileURL(dir + '/'),
        storageTransfer,
        options,
        machineInfo(),
        result,
      );
      const written = JSON.parse(await readFile(file, 'utf8'));
      expect(file.pathname).toMatch(new RegExp(`storage-transfer-${result.backend}\\.json$`));
      expect(written.measurements).toHaveLength(8);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
