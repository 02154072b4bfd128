// Writes a benchmark's results to bench/results/<name>-<backend>.json and prints them as a table.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import type { Benchmark, BenchOptions, BenchResult } from './types.js';

export interface MachineInfo {
  node: string;
  platform: string;
  cpuModel: string;
  cpuCount: number;
  memoryGiB: number;
  /** 1-minute load average when the run started: other work on the machine skews latencies. */
  loadAverage1m: number;
  /** The same when it ended (set by run.ts), so a run under changing load shows it. */
  loadAverage1mEnd?: number;
  gitCommit: string | null;
  date: string;
}

export const currentLoad = () => Math.round((loadavg()[0] ?? 0) * 100) / 100;

export function machineInfo(): MachineInfo {
  let gitCommit: string | null;
  try {
    gitCommit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    gitCommit = null; // Not a checkout (e.g. an unpacked tarball): the report just lacks it.
  }
  return {
    node: process.version,
    platform: `${platform()} ${release()}`,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cpuCount: cpus().length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadAverage1m: currentLoad(),
    gitCommit,
    date: new Date().toISOString(),
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export async function writeResult(
  dir: URL,
  bench: Benchmark,
  options: Omit<BenchOptions, 'log'>,
  machine: MachineInfo,
  result: BenchResult,
): Promise<URL> {
  await mkdir(dir, { recursive: true });
  const file = new URL(`${bench.name}-${result.backend}.json`, dir);
  const body = {
    benchmark: bench.name,
    description: bench.description,
    unit: 'ms',
    machine: { ...machine, backend: result.backend },
    options,
    measurements: result.measurements.map((m) => ({
      ...m,
      stats: m.stats && Object.fromEntries(Object.entries(m.stats).map(([k, v]) => [k, round(v)])),
    })),
    comparisons: result.comparisons.map((c) => ({
      ...c,
      p50Ratio: c.p50Ratio === null ? null : round(c.p50Ratio),
      p99Ratio: c.p99Ratio === null ? null : round(c.p99Ratio),
      p50DeltaMs: c.p50DeltaMs === null ? null : round(c.p50DeltaMs),
    })),
    goals: result.goals,
    notes: result.notes,
  };
  await writeFile(file, JSON.stringify(body, null, 2) + '\n');
  return file;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const ms = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(3));
const ratio = (x: number | null) => (x === null ? '-' : `${x.toFixed(2)}×`);

export function formatResult(bench: Benchmark, result: BenchResult): string {
  const measurements = table(
    ['case', 'side', 'n', 'p50 ms', 'p99 ms', 'mean ms', 'error'],
    result.measurements.map((m) => [
      m.case,
      m.side,
      String(m.stats?.n ?? 0),
      ms(m.stats?.p50),
      ms(m.stats?.p99),
      ms(m.stats?.mean),
      m.error ?? '',
    ]),
  );
  const comparisons = table(
    ['case', 'ratio', 'p50', 'p99', 'p50 delta ms'],
    result.comparisons.map((c) => [
      c.case,
      `${c.numerator}/${c.denominator}`,
      ratio(c.p50Ratio),
      ratio(c.p99Ratio),
      c.p50DeltaMs === null ? '-' : `+${c.p50DeltaMs.toFixed(3)}`,
    ]),
  );
  const goals = result.goals.map(
    (g) => `${g.met === null ? 'NOT JUDGED' : g.met ? 'MET' : 'MISSED'}  ${g.goal} (${g.detail})`,
  );
  return [
    `== ${bench.name} on ${result.backend}`,
    measurements,
    '',
    comparisons,
    '',
    ...goals,
    ...result.notes.map((n) => `note: ${n}`),
  ].join('\n');
}
