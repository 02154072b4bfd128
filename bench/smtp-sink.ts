// A minimal SMTP sink for the send benchmark: accepts and discards every message in a worker thread
// (so its work never queues behind the emulator's event loop) and counts messages per recipient.
import { Worker } from 'node:worker_threads';

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
