// The reporter behind an export's progress broadcasts (supabase/functions/_shared/throttle.ts):
// throttled, and a send that fails — at once, later, or by throwing — is warned about once and
// never reaches the caller, so a broken broadcast cannot fail the export it reports on.
import { describe, expect, it } from 'vitest';
import { progressReporter } from '../../supabase/functions/_shared/throttle';

function harness(send: (rows: number) => Promise<void>) {
  let now = 1_000_000;
  const warnings: unknown[] = [];
  const report = progressReporter({
    send,
    warn: (error) => warnings.push(error),
    intervalMs: 500,
    now: () => now,
  });
  return { report, warnings, advance: (ms: number) => (now += ms) };
}

// Lets every settled promise's handlers run.
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('progressReporter', () => {
  it('sends throttled reports and warns about nothing while they succeed', async () => {
    const sent: number[] = [];
    const { report, warnings, advance } = harness(async (rows) => {
      sent.push(rows);
    });
    report(1);
    advance(100);
    report(2);
    advance(400);
    report(3);
    await settle();
    expect(sent).toEqual([1, 3]);
    expect(warnings).toEqual([]);
  });

  it('warns once however many reports fail, and keeps sending', async () => {
    let calls = 0;
    const { report, warnings, advance } = harness(() => {
      calls += 1;
      return Promise.reject(new Error(`refused ${calls}`));
    });
    for (let i = 0; i < 4; i++) {
      expect(() => report(i)).not.toThrow();
      advance(500);
    }
    await settle();
    expect(calls).toBe(4);
    expect(warnings).toHaveLength(1);
    expect((warnings[0] as Error).message).toBe('refused 1');
  });

  it('treats a send that throws before it returns a promise as a failed report', async () => {
    const { report, warnings } = harness(() => {
      throw new Error('no network');
    });
    expect(() => report(1)).not.toThrow();
    await settle();
    expect(warnings).toHaveLength(1);
  });

  it('warns for a failure that follows successful reports', async () => {
    const outcomes = [true, true, false, false];
    const { report, warnings, advance } = harness(async () => {
      if (!outcomes.shift()) throw new Error('the broadcast endpoint answered 503');
    });
    for (let i = 0; i < 4; i++) {
      report(i);
      advance(500);
    }
    await settle();
    expect(warnings.map((error) => (error as Error).message)).toEqual([
      'the broadcast endpoint answered 503',
    ]);
  });

  it('settles once the reports sent so far are delivered or have failed', async () => {
    let deliver: () => void = () => {};
    const { report } = harness((rows) =>
      rows === 1
        ? new Promise<void>((resolve) => (deliver = resolve))
        : Promise.reject(new Error('x')),
    );
    report(1);
    let settled = false;
    const waiting = report.settle(10_000).then(() => (settled = true));
    await settle();
    expect(settled).toBe(false);
    deliver();
    await waiting;
    expect(settled).toBe(true);
  });

  it('settles after its time limit when a report hangs, and at once with nothing sent', async () => {
    const { report } = harness(() => new Promise<void>(() => {}));
    const started = Date.now();
    await report.settle(0);
    report(1);
    await report.settle(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });
});
