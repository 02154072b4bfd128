// A minimal SMTP sink for the send benchmark: accepts and discards every message in a worker thread
// (so its work never queues behind the emulator's event loop) and counts messages per recipient;
// its capacity with a plain pooled client, and the rate held over its acceptance times.
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { smtpPool, type SmtpConnection } from '../supabase/functions/_shared/smtp-pool';

export interface SinkStats {
  messages: number;
  bytes: number;
  /** Distinct recipient addresses. */
  recipients: number;
  /** Addresses that received more than one message. */
  duplicates: number;
  connections: number;
  /** Acceptance time (epoch ms) of each message, in order. */
  times: Float64Array;
  /** [address, messages] of every recipient, when asked for. */
  addresses?: [string, number][];
}

export interface SmtpSink {
  host: string;
  port: number;
  /** Counts since the last reset; `reset` starts new counts after answering. */
  stats(options?: { reset?: boolean; addresses?: boolean }): Promise<SinkStats>;
  stop(): Promise<void>;
}

export async function startSink(host = '127.0.0.1'): Promise<SmtpSink> {
  const worker = new Worker(new URL('./smtp-sink-thread.mjs', import.meta.url), {
    workerData: { host },
  });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (m: { type: string; port: number }) => resolve(m.port));
  });
  let nextId = 0;
  const waiting = new Map<number, (stats: SinkStats) => void>();
  worker.on('message', (m: SinkStats & { type: string; id: number }) => {
    if (m.type !== 'stats') return;
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
  return {
    host,
    port,
    stats: ({ reset = false, addresses = false } = {}) =>
      new Promise((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        worker.postMessage({ type: 'stats', id, reset, addresses });
      }),
    async stop() {
      worker.postMessage({ type: 'stop' });
      await worker.terminate();
    },
  };
}

/** The first seconds of a limited send are left out of its rate: Deno boots, pools connect. */
export const RATE_SETTLE_MS = 2000;

/**
 * The sink's capacity: ready-made messages of `size` bytes through the SMTP client process-queue
 * uses (smtp-pool.ts over nodemailer's SMTPConnection) and nothing else, timed after `warmup`
 * untimed messages on the same pool (connected, its code compiled). A client that composed each
 * message (nodemailer's Mailer, even given the raw text) would measure itself: it reached about a
 * third of this rate, on one core, while the sink's thread idled.
 */
export async function sinkCapacity(
  sink: SmtpSink,
  count: number,
  size: number,
  connections: number,
  warmup = 0,
): Promise<{ ms: number; rate: number }> {
  const pool = smtpPool({
    create: () =>
      new SMTPConnection({
        host: sink.host,
        port: sink.port,
        ignoreTLS: true,
      }) as unknown as SmtpConnection,
    maxConnections: connections,
    maxMessages: Infinity,
  });
  const header = (i: number) =>
    `From: news@example.com\r\nTo: cap-${i}@example.com\r\nSubject: Weekly news\r\n` +
    `Message-ID: <cap-${i}@example.com>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain\r\n\r\n`;
  const filler = 'x'.repeat(75) + '\r\n';
  const body = filler.repeat(Math.max(1, Math.ceil((size - header(0).length) / filler.length)));
  /** Sends messages `from` to `to` - 1 with connections * 2 in flight. */
  const send = async (from: number, to: number) => {
    let next = from;
    await Promise.all(
      Array.from({ length: connections * 2 }, async () => {
        for (let i = next++; i < to; i = next++)
          await pool.send(
            { from: 'news@example.com', to: [`cap-${i}@example.com`] },
            Buffer.from(header(i) + body),
          );
      }),
    );
  };
  let ms: number;
  try {
    await send(-warmup, 0);
    await sink.stats({ reset: true });
    const started = performance.now();
    await send(0, count);
    ms = performance.now() - started;
  } finally {
    pool.close();
  }
  const stats = await sink.stats({ reset: true });
  if (stats.messages !== count)
    throw new Error(`the sink counted ${stats.messages} of ${count} messages`);
  return { ms, rate: (count / ms) * 1000 };
}

/** Messages per second after the first RATE_SETTLE_MS, and the fullest and emptiest whole second. */
export function heldRate(times: Float64Array): { rate: number; n: number; perSecond: number[] } {
  const from = times[0]! + RATE_SETTLE_MS;
  const kept = [...times].filter((t) => t >= from);
  if (kept.length < 2) return { rate: NaN, n: kept.length, perSecond: [] };
  const rate = ((kept.length - 1) / (kept[kept.length - 1]! - kept[0]!)) * 1000;
  // Whole seconds only: the last one is partial.
  const perSecond = new Array<number>(Math.floor((kept.at(-1)! - kept[0]!) / 1000)).fill(0);
  for (const t of kept) {
    const second = Math.floor((t - kept[0]!) / 1000);
    if (second < perSecond.length) perSecond[second]! += 1;
  }
  return { rate, n: kept.length, perSecond };
}
