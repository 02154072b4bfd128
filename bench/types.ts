// The contract between bench/run.ts and each benchmark module, and the shape of a results file.
import type { Stats } from './stats.js';

export type Backend = 'pglite' | 'postgres';

export interface BenchOptions {
  /** Measured iterations per case and side. */
  samples: number;
  /** Unmeasured iterations first (JIT, caches, connection set-up). */
  warmup: number;
  log: (message: string) => void;
}

/** One case measured on one side (e.g. "select by primary key" through "rest"). */
export interface Measurement {
  case: string;
  side: string;
  /** null when the side failed; `error` then says why. No numbers are ever made up. */
  stats: Stats | null;
  error: string | null;
  /** Completed operations per second, for benchmarks that run concurrent load. */
  throughput?: number | null;
  /** CPU milliseconds per operation of the process measured (send: process-queue's Deno). */
  cpuMsPerOperation?: number | null;
}

/** How one side compares with another on one case (numerator / denominator). */
export interface Comparison {
  case: string;
  numerator: string;
  denominator: string;
  p50Ratio: number | null;
  p99Ratio: number | null;
  /** numerator p50 − denominator p50 in ms: what the extra layers cost, less load-sensitive than a ratio. */
  p50DeltaMs: number | null;
}

export interface GoalResult {
  goal: string;
  /** null when it could not be judged (a side failed). */
  met: boolean | null;
  detail: string;
}

export interface BenchResult {
  backend: Backend;
  measurements: Measurement[];
  comparisons: Comparison[];
  goals: GoalResult[];
  notes: string[];
}

export interface Benchmark {
  name: string;
  description: string;
  /** Samples and warm-up when the command line names none (slow cases need fewer than 1000). */
  defaults?: { samples: number; warmup: number };
  /** Why it cannot run here (e.g. it needs native Postgres), or null; run.ts then skips it. */
  skip?: () => string | null;
  run(options: BenchOptions): Promise<BenchResult>;
}
