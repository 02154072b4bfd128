// The throttle behind an export's progress broadcasts (supabase/functions/_shared/throttle.ts):
// the first report goes at once, then at most one per interval, always with the value of its call.
import { describe, expect, it } from 'vitest';
import { throttled } from '../../supabase/functions/_shared/throttle';

function clocked() {
  let now = 1_000_000;
  const sent: number[] = [];
  return {
    sent,
    advance: (ms: number) => (now += ms),
    report: (interval: number) =>
      throttled(
        interval,
        (rows: number) => sent.push(rows),
        () => now,
      ),
  };
}

describe('throttled', () => {
  it('sends the first value at once and drops values inside the interval', () => {
    const clock = clocked();
    const report = clock.report(500);
    report(5_000);
    expect(clock.sent).toEqual([5_000]);
    clock.advance(100);
    report(10_000);
    clock.advance(399);
    report(15_000);
    expect(clock.sent).toEqual([5_000]);
    clock.advance(1);
    report(20_000);
    expect(clock.sent).toEqual([5_000, 20_000]);
  });

  it('measures the interval from the last value sent, not from the last call', () => {
    const clock = clocked();
    const report = clock.report(500);
    for (let rows = 1; rows <= 20; rows += 1) {
      report(rows);
      clock.advance(120);
    }
    // Calls at 0, 120, …, 2,280 ms: sent at 0, 600, 1,200, 1,800 ms.
    expect(clock.sent).toEqual([1, 6, 11, 16]);
  });

  it('sends the first value even at time zero of its clock', () => {
    const sent: string[] = [];
    const report = throttled(
      500,
      (value: string) => sent.push(value),
      () => 0,
    );
    report('a');
    report('b');
    expect(sent).toEqual(['a']);
  });
});
