// Unit tests for measureSides: warm-up is not recorded, sides interleave, a failing side is reported.
import { describe, expect, it } from 'vitest';
import { measureSides } from './measure.js';

describe('measureSides', () => {
  it('records only the measured iterations and alternates which side goes first', async () => {
    const calls: string[] = [];
    const outcome = await measureSides(
      {
        a: async (i) => void calls.push(`a${i}`),
        b: async (i) => void calls.push(`b${i}`),
      },
      { warmup: 2, samples: 3 },
    );
    expect(calls).toEqual(['a0', 'b0', 'b1', 'a1', 'a2', 'b2', 'b3', 'a3', 'a4', 'b4']);
    expect(outcome.a!.samples).toHaveLength(3);
    expect(outcome.b!.samples).toHaveLength(3);
    expect(outcome.a!.samples!.every((ms) => ms >= 0)).toBe(true);
  });

  it('measures real elapsed time', async () => {
    const outcome = await measureSides(
      { sleep: () => new Promise((r) => setTimeout(r, 20)) },
      { warmup: 0, samples: 2 },
    );
    expect(Math.min(...outcome.sleep!.samples!)).toBeGreaterThanOrEqual(15);
  });

  it('stops a failing side with its error and keeps measuring the others', async () => {
    let okCalls = 0;
    const outcome = await measureSides(
      {
        ok: async () => void okCalls++,
        broken: async (i) => {
          if (i === 1) throw new Error('REST 42501: permission denied');
        },
      },
      { warmup: 0, samples: 4 },
    );
    expect(outcome.broken).toEqual({ samples: null, error: 'REST 42501: permission denied' });
    expect(outcome.ok!.samples).toHaveLength(4);
    expect(okCalls).toBe(4);
  });
});
