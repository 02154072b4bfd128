// Every benchmark `npm run bench` knows, by name.
import { restRoundtrip } from './rest-roundtrip.js';
import type { Benchmark } from './types.js';

export const BENCHMARKS: readonly Benchmark[] = [restRoundtrip];
