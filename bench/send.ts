// Issue 5's benchmark: campaign send throughput through process-queue (several runs at once, as
// pg_cron and send-campaign's kick start them) into an SMTP sink, beside the sink's own capacity
// measured with the same SMTP client sending ready-made messages; the worker's peak memory; and how closely
// POSTBOX_SEND_RATE is held.
import { fileURLToPath } from 'node:url';
import { startEmulator, type RunningEmulator } from '../emulator/index.js';
import { functionPeakMb } from './import.js';
import { heldRate, RATE_SETTLE_MS, sinkCapacity, startSink, type SmtpSink } from './smtp-sink.js';
import { summarize } from './stats.js';
import { PLAIN_BODY, TAGGED_BODY, type CampaignBody } from './send-bodies.js';
import { errorText, sendCampaign, type SendRun } from './send-campaign.js';
import type {
  Backend,
  Benchmark,
  BenchOptions,
  BenchResult,
  GoalResult,
  Measurement,
} from './types.js';

/** Goals (issue 5): unlimited, at least half the sink's capacity; limited, within 5 % of the setting. */
const GOAL_CAPACITY_SHARE = 0.5;
/** Goal (issue 21): a body full of merge tags sends at least 90 % as fast as the same without. */
const GOAL_TAGGED_SHARE = 0.9;
const GOAL_RATE_TOLERANCE = 0.05;
/** Connections of the plain client: as many as process-queue's pool (POSTBOX_SMTP_MAX_CONNECTIONS). */
const SMTP_CONNECTIONS = 16;
/** The plain client sends at most this many messages: enough for a steady rate, and quicker. */
const CAPACITY_MESSAGES = 20_000;
/**
 * Messages each side sends before it is timed: process-queue a campaign of its own (Deno compiles
 * the send path, the REST connections prepare their statements, the SMTP pool connects), the plain
 * client the same number on the pool it is then timed with. Both rates are steady-state rates; with
 * 200 the 10,000 case still paid for compilation and ran 20-30 % slower than 100,000.
 */
const WARMUP_MESSAGES = 2_000;

export interface SendOptions extends BenchOptions {
  /** Campaign sizes sent with no rate limit (default: samples, and 100,000). */
  sizes?: number[];
  /** POSTBOX_SEND_RATE values to check, each sent for `rateSeconds`. */
  rates?: number[];
  rateSeconds?: number;
  /** process-queue runs started at once (each continues itself at 500 messages). */
  workers?: number;
  /** Plain/tagged pairs sent per size up to LARGE_SIZE (default 3). */
  pairs?: number;
  /** Pairs sent per size above LARGE_SIZE (default 1). */
  largePairs?: number;
}

/** Sizes above this send `largePairs` pairs (a 100,000 send takes minutes a side). */
const LARGE_SIZE = 20_000;

const numbers = (text: string | undefined) =>
  text
    ?.split(',')
    .map(Number)
    .filter((n) => n > 0);

async function withEmulator<T>(
  sink: SmtpSink,
  sendRate: string,
  body: (emu: RunningEmulator) => Promise<T>,
): Promise<T> {
  // The Deno process reads POSTBOX_* from the emulator's environment when it starts, which is at
  // the first request: the setting must stay in place until the emulator stops.
  const saved = process.env.POSTBOX_SEND_RATE;
  process.env.POSTBOX_SEND_RATE = sendRate;
  try {
    const emu = await startEmulator({
      memory: true,
      port: 0,
      dbPort: null,
      mailWebPort: 0,
      mailSmtpPort: 0,
      functionsSmtp: { host: sink.host, port: sink.port },
      projectDir: fileURLToPath(new URL('..', import.meta.url)),
    });
    try {
      return await body(emu);
    } finally {
      await emu.stop();
    }
  } finally {
    if (saved === undefined) delete process.env.POSTBOX_SEND_RATE;
    else process.env.POSTBOX_SEND_RATE = saved;
  }
}

const cpuMs = (ms: number | null) => (ms === null ? null : Math.round(ms * 1000) / 1000);

const median = (values: number[]): number => summarize(values).p50;

const capacityGoal = (label: string) =>
  `${label}: at least ${GOAL_CAPACITY_SHARE * 100} % of the sink's capacity with no rate limit`;

function measurement(
  caseName: string,
  side: string,
  ms: number | number[] | null,
  throughput: number | null,
  error: string | null = null,
): Measurement {
  return {
    case: caseName,
    side,
    stats: ms === null ? null : summarize(Array.isArray(ms) ? ms : [ms]),
    error: ms === null ? (error ?? 'not measured') : null,
    throughput: throughput === null ? null : Math.round(throughput * 10) / 10,
  };
}

export async function runSendBench(options: SendOptions): Promise<BenchResult> {
  let backend: Backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  // 100,000 on native Postgres only: PGlite serialises every query on its one connection.
  const sizes =
    options.sizes ??
    numbers(process.env.BENCH_SEND_SIZES) ??
    (backend === 'postgres' ? [options.samples, 100_000] : [options.samples]);
  const rates = options.rates ?? numbers(process.env.BENCH_SEND_RATES) ?? [50, 200];
  const rateSeconds = options.rateSeconds ?? Number(process.env.BENCH_SEND_RATE_SECONDS ?? 30);
  const workers = options.workers ?? Number(process.env.BENCH_SEND_WORKERS ?? 4);
  const pairs = options.pairs ?? Number(process.env.BENCH_SEND_PAIRS ?? 3);
  const largePairs = options.largePairs ?? Number(process.env.BENCH_SEND_LARGE_PAIRS ?? 3);
  const measurements: Measurement[] = [];
  const goals: GoalResult[] = [];
  const notes: string[] = [];
  /** Plain SMTP client runs still to do, and where their rows go. */
  const capacities: {
    label: string;
    count: number;
    size: number;
    rate: number;
    at: { measurement: number; goal: number };
  }[] = [];
  const sink = await startSink();
  try {
    await withEmulator(sink, '0', async (emu) => {
      backend = emu.db.kind;
      options.log(`warm-up: a campaign of ${WARMUP_MESSAGES} messages, plain and with merge tags`);
      await sendCampaign(emu, sink, WARMUP_MESSAGES, workers);
      await sendCampaign(emu, sink, WARMUP_MESSAGES, workers, TAGGED_BODY);
      for (const count of sizes) {
        const label = `${count.toLocaleString('en-US')} recipients`;
        const pairCount = count > LARGE_SIZE ? largePairs : pairs;
        // Interleaved, the order alternating pair by pair (plain first, then tags first, ...), so
        // drift over the run (table growth, the machine's load) falls on both sides alike.
        const order = Array.from({ length: pairCount }, (_, i) =>
          i % 2 === 0 ? [PLAIN_BODY, TAGGED_BODY] : [TAGGED_BODY, PLAIN_BODY],
        ).flat();
        const runs = new Map<CampaignBody, SendRun[]>([
          [PLAIN_BODY, []],
          [TAGGED_BODY, []],
        ]);
        const errors = new Map<CampaignBody, string>();
        for (const [i, body] of order.entries()) {
          const side = body === PLAIN_BODY ? 'plain' : 'merge tags';
          options.log(
            `${label}, ${side} (${i + 1}/${order.length}): ${workers} process-queue runs at once, no rate limit`,
          );
          try {
            const run = await sendCampaign(emu, sink, count, workers, body);
            runs.get(body)!.push(run);
            for (const failure of run.failedRuns)
              notes.push(`${label}: a first run failed: ${failure}`);
            notes.push(
              `${label}, ${side} #${runs.get(body)!.length}: ${((count / run.ms) * 1000).toFixed(0)} messages/s, ` +
                `CPU ${cpuMs(run.cpuMsPerMessage) ?? 'unknown'} ms a message, ` +
                `${Math.round(run.sink.bytes / run.sink.messages)} bytes a message; sent_at first/p10/p50/p90/last ` +
                `${run.timeline.join(' / ')} s after the first POST; load ${run.load}.`,
            );
          } catch (err) {
            errors.set(body, errorText(err));
          }
        }
        const sideOf = (body: CampaignBody, side: string) => {
          const done = runs.get(body)!;
          if (done.length === 0 || errors.has(body)) {
            measurements.push(
              measurement(label, side, null, null, errors.get(body) ?? 'not measured'),
            );
            return null;
          }
          const rate = median(done.map((r) => (count / r.ms) * 1000));
          const cpus = done.map((r) => r.cpuMsPerMessage).filter((c) => c !== null);
          const cpu = cpus.length === done.length ? median(cpus) : null;
          return {
            rate,
            cpu,
            size: median(done.map((r) => r.sink.bytes / r.sink.messages)),
            measurement: {
              ...measurement(
                label,
                side,
                done.map((r) => r.ms),
                rate,
              ),
              cpuMsPerOperation: cpuMs(cpu),
            },
          };
        };
        const plain = sideOf(PLAIN_BODY, 'process-queue');
        if (plain) {
          measurements.push(plain.measurement);
          // Measured once every size's pairs are done (below), so no timed send follows the plain
          // client's burst; its rows keep their places meanwhile.
          const at = { measurement: measurements.length, goal: goals.length };
          measurements.push(measurement(label, 'plain SMTP client', null, null, 'not measured'));
          goals.push({ goal: capacityGoal(label), met: null, detail: 'not measured' });
          capacities.push({ label, count, size: Math.round(plain.size), rate: plain.rate, at });
        }
        const peak = await functionPeakMb('process-queue');
        notes.push(
          `${label}: process-queue Deno process peak RSS (VmHWM) ${peak ?? 'unknown'} MB so far.`,
        );
        const tagged = sideOf(TAGGED_BODY, 'process-queue, merge tags');
        if (tagged) measurements.push(tagged.measurement);
        if (plain && tagged) {
          const share = tagged.rate / plain.rate;
          goals.push({
            goal: `${label}: a body full of merge tags at least ${GOAL_TAGGED_SHARE * 100} % as fast as the same send without`,
            met: share >= GOAL_TAGGED_SHARE,
            detail:
              `${(share * 100).toFixed(1)} % (medians of ${runs.get(TAGGED_BODY)!.length} and ${runs.get(PLAIN_BODY)!.length} sends: ` +
              `${tagged.rate.toFixed(0)} vs ${plain.rate.toFixed(0)} messages/s); ` +
              `process-queue CPU ${cpuMs(tagged.cpu) ?? 'unknown'} vs ${cpuMs(plain.cpu) ?? 'unknown'} ms a message`,
          });
        }
      }
      for (const { label, count, size, rate, at } of capacities) {
        const capacityCount = Math.min(count, CAPACITY_MESSAGES);
        options.log(`${label}: sink capacity, ${capacityCount} messages of ${size} bytes`);
        try {
          const capacity = await sinkCapacity(
            sink,
            capacityCount,
            size,
            SMTP_CONNECTIONS,
            WARMUP_MESSAGES,
          );
          measurements[at.measurement] = measurement(
            label,
            'plain SMTP client',
            capacity.ms,
            capacity.rate,
          );
          const share = rate / capacity.rate;
          goals[at.goal] = {
            goal: capacityGoal(label),
            met: share >= GOAL_CAPACITY_SHARE,
            detail: `${(share * 100).toFixed(1)} % (median ${rate.toFixed(0)} vs ${capacity.rate.toFixed(0)} messages/s)`,
          };
        } catch (err) {
          measurements[at.measurement] = measurement(
            label,
            'plain SMTP client',
            null,
            null,
            errorText(err),
          );
        }
      }
    });
    for (const limit of rates) {
      const label = `rate ${limit}/s`;
      const count = Math.round(limit * rateSeconds);
      options.log(`${label}: ${count} messages, POSTBOX_SEND_RATE=${limit}`);
      try {
        await withEmulator(sink, String(limit), async (emu) => {
          await sendCampaign(emu, sink, Math.min(20, count), workers); // warm-up
          const run = await sendCampaign(emu, sink, count, workers);
          const held = heldRate(run.sink.times);
          for (const failure of run.failedRuns)
            notes.push(`${label}: a first run failed: ${failure}`);
          measurements.push(measurement(label, 'process-queue', run.ms, held.rate));
          const off = held.rate / limit - 1;
          goals.push({
            goal: `${label}: within ${GOAL_RATE_TOLERANCE * 100} % of the setting`,
            met: Math.abs(off) <= GOAL_RATE_TOLERANCE,
            detail: `${held.rate.toFixed(2)} messages/s (${off >= 0 ? '+' : ''}${(off * 100).toFixed(1)} %) over ${held.n} messages`,
          });
          const seconds = held.perSecond;
          notes.push(
            `${label}: ${count} messages in ${(run.ms / 1000).toFixed(1)} s; rate measured at the sink after the first ${RATE_SETTLE_MS / 1000} s; ` +
              `whole seconds held ${seconds.length ? `${Math.min(...seconds)}–${Math.max(...seconds)}` : 'n/a'} messages; ` +
              `process-queue peak RSS ${(await functionPeakMb('process-queue')) ?? 'unknown'} MB.`,
          );
        });
      } catch (err) {
        measurements.push(measurement(label, 'process-queue', null, null, errorText(err)));
      }
    }
  } finally {
    await sink.stop();
  }
  notes.push(
    `Each side sends ${WARMUP_MESSAGES.toLocaleString('en-US')} messages untimed first (process-queue a campaign of its own, the plain client on the pool it is then timed with), so both rates are steady-state rates.`,
    `process-queue: ${workers} runs started at once after start_campaign_send queued the deliveries; each stops at 500 messages and starts the next run itself, and the emulator's pg_cron adds one every 10 s. ` +
      'Timed until the campaign is sent (every result recorded); every recipient checked to have got exactly one message at the sink.',
    `plain SMTP client: process-queue's own SMTP client (smtp-pool.ts over nodemailer's SMTPConnection, ${SMTP_CONNECTIONS} connections as its default pool, ${SMTP_CONNECTIONS * 2} messages in flight) and nothing else, ready-made messages of the campaign's average size, up to ${CAPACITY_MESSAGES.toLocaleString('en-US')} of them — the sink's capacity on this machine. (Until session 8 this was nodemailer's Mailer pool given the raw text, which composed each message again and reached only about a third of this rate: the ratios before then are against that lower figure.)`,
    `Merge tags (issue 21): each size sends the plain newsletter and the same one with its subject and body full of Liquid tags (${TAGGED_BODY.body_md.split('{{').length - 1 + TAGGED_BODY.subject.split('{{').length - 1} of them: first name with a default, address, attribute with a default, site name) in ${pairs} interleaved pairs (${largePairs} above ${LARGE_SIZE.toLocaleString('en-US')} recipients), the order alternating pair by pair, each on fresh subscribers (every other one named, ${process.env.BENCH_SEND_NAMES === 'distinct' ? 'each with a first name of their own' : 'all first names "Reader"'}) with the tables vacuumed and analysed first; the goal is the ratio of the median rates. The workers compile each campaign once and render only Liquid per message. ` +
      'CPU ms a message: user + system time of the process-queue Deno processes this benchmark started (/proc/<pid>/stat, found by their parent-pid chain) over the send, divided by the recipients; the median of each side.',
    'Sink: a minimal SMTP server in a worker thread of the benchmark process that accepts and discards (MailDev, which parses and stores every message, manages far less and cannot be the sink for 100,000).',
  );
  return { backend, measurements, comparisons: [], goals, notes };
}

export const send: Benchmark = {
  name: 'send',
  description:
    'Campaign send messages/s through process-queue beside the SMTP sink capacity, worker peak memory, send-rate accuracy',
  // `samples` is the first campaign size (100,000 follows).
  defaults: { samples: 10_000, warmup: 0 },
  run: (options) => runSendBench(options),
};
