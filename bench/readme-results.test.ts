// Unit tests for the README results table rendered from results files.
import { describe, expect, it } from 'vitest';
import { renderResultsMarkdown } from './readme-results.js';

const file = {
  benchmark: 'rest-roundtrip',
  machine: {
    backend: 'postgres',
    date: '2026-11-22T14:00:00.000Z',
    node: 'v20.20.2',
    cpuModel: 'AMD EPYC',
    cpuCount: 2,
    loadAverage1m: 1.5,
    gitCommit: 'abc1234',
  },
  options: { samples: 1000, warmup: 100 },
  measurements: [
    { case: 'select by primary key', side: 'rest', stats: { p50: 1.234, p99: 5.5 }, error: null },
    { case: 'select by primary key', side: 'direct', stats: { p50: 0.5, p99: 1 }, error: null },
    { case: 'select by primary key', side: 'bare', stats: { p50: 0.25, p99: 0.75 }, error: null },
    { case: 'insert', side: 'rest', stats: null, error: 'REST not serving: 501' },
    { case: 'insert', side: 'direct', stats: { p50: 0.4, p99: 0.9 }, error: null },
  ],
  comparisons: [
    {
      case: 'select by primary key',
      numerator: 'rest',
      denominator: 'direct',
      p50Ratio: 2.468,
      p50DeltaMs: 0.734,
    },
    { case: 'insert', numerator: 'rest', denominator: 'direct', p50Ratio: null, p50DeltaMs: null },
  ],
  goals: [
    { goal: 'select by primary key: REST p50 ≤ 2× direct p50', met: false, detail: '2.47×' },
    { goal: 'insert: REST p50 ≤ 2× direct p50', met: null, detail: 'a side failed' },
  ],
};

describe('renderResultsMarkdown', () => {
  it('renders one row per case with p50 / p99, the ratio and whether the goal was met', () => {
    const md = renderResultsMarkdown([file]);
    expect(md).toContain(
      '**rest-roundtrip** on **postgres** — 2026-11-22 14:00 UTC, commit abc1234',
    );
    expect(md).toContain(
      '| select by primary key | 1.23 / 5.50 | 0.50 / 1.00 | 0.25 / 0.75 | 2.47× | 0.73 ms | no |',
    );
    expect(md).toContain('| insert | failed | 0.40 / 0.90 | - | - | - | not judged |');
    expect(md).toContain('- insert / rest failed: REST not serving: 501');
  });

  it('lays out each benchmark with its own sides and ratios, "-" where a case lacks one', () => {
    const storage = {
      ...file,
      benchmark: 'storage-transfer',
      options: { samples: 30, warmup: 3 },
      measurements: [
        { case: 'upload 1 MB', side: 'storage', stats: { p50: 20, p99: 40 }, error: null },
        { case: 'upload 1 MB', side: 'disk', stats: { p50: 4, p99: 8 }, error: null },
        { case: 'render', side: 'storage', stats: { p50: 60, p99: 90 }, error: null },
        { case: 'render', side: 'sharp', stats: { p50: 50, p99: 70 }, error: null },
      ],
      comparisons: [
        { case: 'upload 1 MB', numerator: 'storage', denominator: 'disk', p50Ratio: 5 },
        { case: 'render', numerator: 'storage', denominator: 'sharp', p50Ratio: 1.2 },
      ],
      goals: [],
    };
    const md = renderResultsMarkdown([storage]);
    expect(md).toContain('30 samples (+3 warm-up) per side');
    expect(md).toContain(
      '| case | storage | local disk | sharp in-process | storage/disk p50 | storage/sharp p50 |',
    );
    expect(md).toContain('| upload 1 MB | 20.00 / 40.00 | 4.00 / 8.00 | - | 5.00× | - |');
    expect(md).toContain('| render | 60.00 / 90.00 | - | 50.00 / 70.00 | - | 1.20× |');

    const unknown = renderResultsMarkdown([{ ...storage, benchmark: 'something-new' }]);
    expect(unknown).toContain(
      '| case | storage | disk | sharp | storage/disk p50 | storage/sharp p50 |',
    );
  });

  it('says so when there are no results', () => {
    expect(renderResultsMarkdown([])).toBe('_No results yet: run `npm run bench`._');
  });
});
