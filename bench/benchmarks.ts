// Every benchmark `npm run bench` knows, by name.
import { automations } from './automations.js';
import { bulk } from './bulk.js';
import { importBench } from './import.js';
import { lighthouseBench } from './lighthouse.js';
import { realtimeLatency } from './realtime-latency.js';
import { restRoundtrip } from './rest-roundtrip.js';
import { segments } from './segments.js';
import { send } from './send.js';
import { signup } from './signup.js';
import { storageTransfer } from './storage-transfer.js';
import type { Benchmark } from './types.js';

export const BENCHMARKS: readonly Benchmark[] = [
  restRoundtrip,
  realtimeLatency,
  storageTransfer,
  signup,
  importBench,
  send,
  bulk,
  segments,
  automations,
  lighthouseBench,
];
