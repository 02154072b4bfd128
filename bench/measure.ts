// Times async operations with performance.now(): warm-up first, then sides interleaved sample by
// sample (alternating which goes first) so drift and background load hit every side alike.
import { performance } from 'node:perf_hooks';

/** One side of a comparison; `i` is the iteration number, for picking per-iteration inputs. */
export type Operation = (i: number) => Promise<void>;

export type SideOutcome = { samples: number[]; error: null } | { samples: null; error: string };

export async function measureSides(
  sides: Record<string, Operation>,
  options: { samples: number; warmup: number },
): Promise<Record<string, SideOutcome>> {
  const names = Object.keys(sides);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const errors: Record<string, string> = {};

  const runOnce = async (name: string, i: number, record: boolean) => {
    if (name in errors) return;
    const start = performance.now();
    try {
      await sides[name]!(i);
    } catch (err) {
      // A failing side stops being measured; the others carry on, and the report says why.
      errors[name] = err instanceof Error ? err.message : String(err);
      return;
    }
    if (record) samples[name]!.push(performance.now() - start);
  };

  const total = options.warmup + options.samples;
  for (let i = 0; i < total; i++) {
    const order = i % 2 === 0 ? names : [...names].reverse();
    for (const name of order) await runOnce(name, i, i >= options.warmup);
  }
  return Object.fromEntries(
    names.map((n): [string, SideOutcome] =>
      n in errors
        ? [n, { samples: null, error: errors[n]! }]
        : [n, { samples: samples[n]!, error: null }],
    ),
  );
}
