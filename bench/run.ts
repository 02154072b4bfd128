// `npm run bench [-- name...] [--samples N] [--warmup N]`: runs benchmarks on PGlite, or on native
// Postgres when DATABASE_URL is set, writes bench/results/<name>-<backend>.json and prints a table.
// A missed goal is reported, not turned into a failing exit code; a benchmark that crashes is.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { BENCHMARKS } from './benchmarks.js';
import { updateReadme } from './readme-results.js';
import { currentLoad, formatResult, machineInfo, writeResult } from './report.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    samples: { type: 'string' },
    warmup: { type: 'string' },
    out: { type: 'string' },
  },
});

function integerOption(name: string, value: string, min: number): number {
  const n = Number(value);
  if (Number.isInteger(n) && n >= min) return n;
  console.error(`--${name} must be an integer ≥ ${min}, got "${value}"`);
  process.exit(2);
}
// Without --samples/--warmup each benchmark uses its own defaults (1000 and 100 unless it says).
const samples = values.samples === undefined ? null : integerOption('samples', values.samples, 1);
const warmup = values.warmup === undefined ? null : integerOption('warmup', values.warmup, 0);

const unknown = positionals.filter((name) => !BENCHMARKS.some((b) => b.name === name));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}`);
  console.error(`known: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
  process.exit(2);
}
const selected = positionals.length
  ? BENCHMARKS.filter((b) => positionals.includes(b.name))
  : BENCHMARKS;
const resultsDir = values.out
  ? pathToFileURL(resolve(values.out) + '/')
  : new URL('./results/', import.meta.url);

let failed = false;
for (const bench of selected) {
  const skipped = bench.skip?.();
  if (skipped) {
    console.log(`[${bench.name}] skipped: ${skipped}\n`);
    continue;
  }
  const options = {
    samples: samples ?? bench.defaults?.samples ?? 1000,
    warmup: warmup ?? bench.defaults?.warmup ?? 100,
  };
  const machine = machineInfo();
  const started = performance.now();
  try {
    const result = await bench.run({ ...options, log: (m) => console.log(`[${bench.name}] ${m}`) });
    const file = await writeResult(
      resultsDir,
      bench,
      options,
      { ...machine, loadAverage1mEnd: currentLoad() },
      result,
    );
    console.log(formatResult(bench, result));
    console.log(
      `(${((performance.now() - started) / 1000).toFixed(1)} s; written to ${file.pathname})\n`,
    );
  } catch (err) {
    failed = true;
    console.error(`[${bench.name}] crashed: ${(err as Error).stack ?? String(err)}`);
  }
}
// The README's table follows the committed results directory only, not ad-hoc --out runs.
if (!values.out) await updateReadme(resultsDir, new URL('./README.md', import.meta.url));
process.exit(failed ? 1 : 0);
