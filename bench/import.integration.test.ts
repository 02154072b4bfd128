// Smoke test of the import benchmark with a tiny file: the import side is measured and counted
// exactly, COPY is measured on native Postgres (and says why not on PGlite), the export runs.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../emulator/index.js';
import { csvOf, runImportBench } from './import.js';

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

describe('import benchmark', () => {
  it('writes a header and one line per row', () => {
    expect(csvOf('x', 2)).toBe(
      'email,name,city\nimp-x-0@example.com,P0,C0\nimp-x-1@example.com,P1,C1\n',
    );
  });

  it('imports, compares with COPY and exports', async () => {
    const result = await runImportBench({
      samples: 1,
      warmup: 0,
      sizes: [300],
      emu,
      log: () => undefined,
    });
    const [imported, copy, exported] = result.measurements;
    expect(imported).toMatchObject({ case: '300 rows', side: 'import-subscribers', error: null });
    expect(imported!.throughput).toBeGreaterThan(0);
    if (emu.db.kind === 'postgres') {
      expect(copy!.error).toBeNull();
      expect(result.goals[0]!.met).not.toBeNull();
    } else expect(copy!.error).toMatch(/native Postgres/);
    expect(exported!.side).toBe('export-subscribers');
    expect(exported!.error).toBeNull();
    const { rows } = await emu.db.query<{ n: number }>(
      "select count(*)::int as n from public.subscribers where email like 'imp-%'",
    );
    expect(rows[0]!.n).toBe(300);
  }, 120_000);
});
