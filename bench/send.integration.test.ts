// Smoke test of the send benchmark with tiny sizes: the SMTP sink parses what clients send, and a
// run measures every side (plain and with merge tags), with every recipient delivered exactly once
// (no timing is asserted).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSendBench } from './send.js';
import { descendsFrom } from './send-bodies.js';
import { heldRate, sinkCapacity, startSink, type SmtpSink } from './smtp-sink.js';

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSink();
});
afterAll(async () => {
  await sink?.stop();
});

/** Writes `parts` one by one (each its own TCP write) and resolves with everything answered. */
function converse(port: number, parts: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.on('connect', async () => {
      for (const part of parts) {
        socket.write(part);
        await new Promise((r) => setTimeout(r, 20));
      }
    });
  });
}

describe('SMTP sink', () => {
  it('finds the end of DATA across writes, counts per recipient and takes pipelined commands', async () => {
    await sink.stats({ reset: true });
    const answer = await converse(sink.port, [
      'EHLO t\r\nMAIL FROM:<a@example.com>\r\nRCPT TO:<One@Example.com>\r\n',
      'RCPT TO:<two@example.com>\r\nDATA\r\n',
      'Subject: x\r\n\r\n..leading dot\r\nbody\r',
      '\n.',
      '\r\nMAIL FROM:<a@example.com>\r\nRCPT TO:<two@example.com>\r\nDATA\r\n.\r\nQUIT\r\n',
    ]);
    expect(answer.match(/^250 OK queued/gm)).toHaveLength(2);
    expect(answer).toMatch(/221 bye/);
    const stats = await sink.stats({ reset: true, addresses: true });
    expect(stats.messages).toBe(2);
    expect(new Map(stats.addresses)).toEqual(
      new Map([
        ['one@example.com', 1],
        ['two@example.com', 2],
      ]),
    );
    expect(stats.duplicates).toBe(1);
  });

  it('measures its capacity with a pooled client', async () => {
    const capacity = await sinkCapacity(sink, 200, 3000, 4);
    expect(capacity.rate).toBeGreaterThan(0);
  });

  it('leaves the warm-up messages out of the measured count', async () => {
    // sinkCapacity itself throws unless the sink counted exactly the timed messages.
    const capacity = await sinkCapacity(sink, 100, 3000, 4, 60);
    expect(capacity.rate).toBeGreaterThan(0);
    expect((await sink.stats()).messages).toBe(0); // reset when the measurement ended
  });

  it('reads a held rate from acceptance times after the first two seconds', () => {
    const times = Float64Array.from({ length: 101 }, (_, i) => 1000 + i * 50); // 20/s for 5 s
    const held = heldRate(times);
    expect(held.rate).toBeCloseTo(20, 6);
    expect(held.n).toBe(61);
    expect(held.perSecond).toEqual([20, 20, 20]);
  });
});

describe('send benchmark', () => {
  it("counts only its own processes' CPU: the parent-pid chain", async () => {
    expect(await descendsFrom(process.pid, process.ppid)).toBe(true);
    expect(await descendsFrom(process.ppid, process.pid)).toBe(false);
  });

  it('sends to each recipient exactly once, measures the sink and a limited rate', async () => {
    const result = await runSendBench({
      samples: 300,
      warmup: 0,
      sizes: [300],
      rates: [50],
      rateSeconds: 3,
      workers: 2,
      pairs: 2,
      log: () => undefined,
    });
    expect(result.backend).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    const [sent, capacity, tagged, limited] = result.measurements;
    // A side whose recipients did not each get exactly one message reports an error, not numbers.
    expect(sent).toMatchObject({ case: '300 recipients', side: 'process-queue', error: null });
    expect(sent!.throughput).toBeGreaterThan(0);
    expect(capacity).toMatchObject({ case: '300 recipients', side: 'plain SMTP client' });
    expect(capacity!.error).toBeNull();
    // The same send with a body full of merge tags, with the CPU each message cost.
    expect(tagged).toMatchObject({
      case: '300 recipients',
      side: 'process-queue, merge tags',
      error: null,
    });
    expect(tagged!.throughput).toBeGreaterThan(0);
    // Interleaved pairs: each side sent twice, its rate and CPU the medians.
    expect(sent!.stats!.n).toBe(2);
    expect(tagged!.stats!.n).toBe(2);
    expect(result.notes.filter((n) => /^300 recipients, merge tags #\d/.test(n))).toHaveLength(2);
    expect(result.notes.join('\n')).toMatch(/plain #2: \d+ messages\/s, CPU [\d.]+ ms a message/);
    expect(tagged!.cpuMsPerOperation).toBeGreaterThan(0);
    expect(sent!.cpuMsPerOperation).toBeGreaterThan(0);
    expect(limited).toMatchObject({ case: 'rate 50/s', side: 'process-queue', error: null });
    expect(limited!.throughput).toBeGreaterThan(0);
    expect(result.goals.map((g) => g.goal)).toEqual([
      "300 recipients: at least 50 % of the sink's capacity with no rate limit",
      '300 recipients: a body full of merge tags at least 90 % as fast as the same send without',
      'rate 50/s: within 5 % of the setting',
    ]);
    for (const goal of result.goals) expect(goal.met).not.toBeNull();
    expect(result.notes.join('\n')).toMatch(/peak RSS \(VmHWM\) [\d.]+ MB/);
  }, 300_000);
});
