import { describe, expect, it } from 'vitest';
import { cpuTicks, stealShare } from './cpu-steal';

const stat = (steal: number, user: number) =>
  `cpu  ${user} 0 100 1000 10 0 5 ${steal} 50 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 1 2\n`;

describe('CPU steal from /proc/stat', () => {
  it('reads the aggregate line, not a single core', () => {
    expect(cpuTicks(stat(7, 300))).toEqual([300, 0, 100, 1000, 10, 0, 5, 7, 50, 0]);
  });

  it('answers steal as a share of every tick that passed, guest time not counted twice', () => {
    // 200 user + 100 steal ticks passed: a third was stolen.
    expect(stealShare(cpuTicks(stat(0, 100)), cpuTicks(stat(100, 300)))).toBeCloseTo(1 / 3);
  });

  it('answers null when no tick passed, and refuses text without a cpu line', () => {
    const same = cpuTicks(stat(5, 5));
    expect(stealShare(same, same)).toBeNull();
    expect(() => cpuTicks('intr 1 2\n')).toThrow(/aggregate cpu line/);
  });
});
