// Issue 4's benchmark: the signup path. `subscribe` requests per second and latency under 1, 10 and
// 50 concurrent clients on the emulator with native Postgres, beside the same write without the
// edge function: the SQL function through REST, and a bare subscriber insert through REST (the floor).
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startEmulator, type RunningEmulator } from '../emulator/index.js';
import { summarize } from './stats.js';
import type {
  Backend,
  Benchmark,
  BenchOptions,
  BenchResult,
  Comparison,
  GoalResult,
  Measurement,
} from './types.js';

export const CLIENTS = [1, 10, 50];
/** p99 of subscribe at 10 concurrent clients must stay under this (issue 4). */
const GOAL_P99_MS = 100;
const GOAL_CLIENTS = 10;
/** Requests of one side run back to back in chunks this large, sides alternating per chunk. */
const CHUNK = 50;

/** One request of a side; `i` is unique across the run (emails and client addresses derive from it). */
type Request = (i: number) => Promise<void>;

async function expectStatus(res: Response, status: number, what: string): Promise<string> {
  const text = await res.text();
  if (res.status !== status)
    throw new Error(`${what} answered ${res.status}: ${text.slice(0, 200)}`);
  return text;
}

/** The three sides, each writing a new address per request. */
export function sides(emu: RunningEmulator, runId: string): Record<string, Request> {
  const email = (i: number) => `bench-${runId}-${i}@example.com`;
  // A distinct client address per request, so the per-IP limit (30 / 10 min) never triggers.
  const clientIp = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  const service = {
    apikey: emu.keys.serviceRole,
    Authorization: `Bearer ${emu.keys.serviceRole}`,
    'Content-Type': 'application/json',
  };
  return {
    subscribe: async (i) => {
      const res = await fetch(`${emu.url}/functions/v1/subscribe`, {
        method: 'POST',
        headers: {
          apikey: emu.keys.publishable,
          'Content-Type': 'application/json',
          'X-Forwarded-For': clientIp(i),
        },
        body: JSON.stringify({ email: email(i), lists: ['newsletter'] }),
      });
      const text = await expectStatus(res, 200, 'subscribe');
      if (text !== '{"status":"pending"}') throw new Error(`subscribe answered ${text}`);
    },
    'REST rpc': async (i) => {
      const res = await fetch(`${emu.url}/rest/v1/rpc/subscribe_form`, {
        method: 'POST',
        headers: service,
        body: JSON.stringify({
          p_email: email(i),
          p_name: '',
          p_lists: ['newsletter'],
          p_ref: null,
          p_attributes: null,
          p_client: clientIp(i),
        }),
      });
      await expectStatus(res, 200, 'rpc subscribe_form');
    },
    'REST insert': async (i) => {
      const res = await fetch(`${emu.url}/rest/v1/subscribers`, {
        method: 'POST',
        headers: { ...service, Prefer: 'return=minimal' },
        body: JSON.stringify({ email: email(i) }),
      });
      await expectStatus(res, 201, 'REST insert');
    },
  };
}

/** Runs requests `first`..`first+count-1` with `clients` concurrent workers; latencies and wall time. */
async function concurrently(request: Request, first: number, count: number, clients: number) {
  let next = first;
  const end = first + count;
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(clients, count) }, async () => {
      while (next < end) {
        const i = next++;
        const t = performance.now();
        await request(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { latencies, wallMs: performance.now() - started };
}

export async function runSignup(
  options: BenchOptions & { clients?: number[]; emu?: RunningEmulator },
): Promise<BenchResult> {
  const emu =
    options.emu ??
    (await startEmulator({
      memory: true,
      port: 0,
      dbPort: null,
      mailWebPort: 0,
      mailSmtpPort: 0,
      projectDir: fileURLToPath(new URL('..', import.meta.url)),
    }));
  const backend: Backend = emu.db.kind;
  const runId = `${Date.now()}-${randomBytes(3).toString('hex')}`;
  const all = sides(emu, runId);
  const names = Object.keys(all);
  let counter = 0;
  const measurements: Measurement[] = [];
  const comparisons: Comparison[] = [];
  const goals: GoalResult[] = [];
  try {
    options.log(`backend ${backend}; warming the subscribe function`);
    await all.subscribe!(counter++);
    for (const clients of options.clients ?? CLIENTS) {
      const label = `${clients} client${clients === 1 ? '' : 's'}`;
      options.log(`${label}: ${options.warmup} warm-up + ${options.samples} requests per side`);
      const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
      const wall: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
      const errors: Record<string, string> = {};
      const run = async (name: string, count: number, record: boolean) => {
        if (name in errors || count <= 0) return;
        try {
          const out = await concurrently(all[name]!, counter, count, clients);
          if (record) {
            samples[name]!.push(...out.latencies);
            wall[name]! += out.wallMs;
          }
        } catch (err) {
          errors[name] = err instanceof Error ? err.message : String(err);
        } finally {
          counter += count;
        }
      };
      for (const name of names) await run(name, options.warmup, false);
      for (let done = 0, k = 0; done < options.samples; done += CHUNK, k++) {
        const order = k % 2 === 0 ? names : [...names].reverse();
        for (const name of order) await run(name, Math.min(CHUNK, options.samples - done), true);
      }
      for (const name of names) {
        const ok = !(name in errors) && samples[name]!.length > 0;
        measurements.push({
          case: label,
          side: name,
          stats: ok ? summarize(samples[name]!) : null,
          error: errors[name] ?? null,
          throughput: ok
            ? Math.round((samples[name]!.length / wall[name]!) * 1000 * 10) / 10
            : null,
        });
      }
      const stats = (side: string) =>
        measurements.find((m) => m.case === label && m.side === side)?.stats ?? null;
      for (const denominator of ['REST rpc', 'REST insert']) {
        const [num, den] = [stats('subscribe'), stats(denominator)];
        comparisons.push({
          case: label,
          numerator: 'subscribe',
          denominator,
          p50Ratio: num && den ? num.p50 / den.p50 : null,
          p99Ratio: num && den ? num.p99 / den.p99 : null,
          p50DeltaMs: num && den ? num.p50 - den.p50 : null,
        });
      }
      if (clients === GOAL_CLIENTS) {
        const s = stats('subscribe');
        goals.push({
          goal: `${label}: subscribe p99 < ${GOAL_P99_MS} ms on ${backend}`,
          met: s ? s.p99 < GOAL_P99_MS : null,
          detail: s ? `p99 ${s.p99.toFixed(1)} ms` : 'subscribe failed',
        });
      }
    }
  } finally {
    if (!options.emu) await emu.stop();
  }
  return {
    backend,
    measurements,
    comparisons,
    goals,
    notes: [
      'subscribe: POST /functions/v1/subscribe {email, lists: ["newsletter"]} with the publishable key, ' +
        'a new address and a distinct X-Forwarded-For per request: validation, one call of the ' +
        'subscribe_form SQL function (rate limits, then the write), the confirmation mail handed to the background.',
      'REST rpc: the same SQL function called through REST with the service role (no edge function, no mail).',
      'REST insert: a bare insert of the subscriber row through REST with the service role — the floor.',
      `Requests run with N concurrent fetch workers in chunks of ${CHUNK}, the sides alternating per chunk; ` +
        'req/s = requests / time spent in that side’s chunks.',
      'Confirmation mails go to the emulator’s mail catcher on the same machine and compete for its CPU.',
    ],
  };
}

export const signup: Benchmark = {
  name: 'signup',
  description:
    'subscribe requests per second and p50/p99 at 1, 10 and 50 concurrent clients, beside the same write through REST',
  defaults: { samples: 300, warmup: 30 },
  skip: () =>
    process.env.DATABASE_URL
      ? null
      : 'needs native Postgres: set DATABASE_URL (e.g. postgres://postgres:postgres@127.0.0.1:5432/postgres)',
  run: (options) => runSignup(options),
};
