// How much of the machine's CPU time the hypervisor gave to other guests (steal), from /proc/stat.
// Two runs of the same code on this shared machine can differ twofold; the 1-minute load average
// does not show why, the steal share does (bench/README, session 9).
import { readFileSync } from 'node:fs';

/** The aggregate `cpu` line of /proc/stat: ticks per state (user, nice, system, idle, iowait, irq, softirq, steal, …). */
export function cpuTicks(procStat: string): number[] {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) throw new Error('/proc/stat has no aggregate cpu line');
  return line.trim().split(/\s+/).slice(1).map(Number);
}

/** Steal as a share (0-1) of all CPU ticks between two readings; null when no tick passed. */
export function stealShare(before: number[], after: number[]): number | null {
  // guest and guest_nice (9, 10) are already counted in user and nice.
  const total = (t: number[]) => t.slice(0, 8).reduce((a, b) => a + b, 0);
  const ticks = total(after) - total(before);
  if (ticks <= 0) return null;
  return ((after[7] ?? 0) - (before[7] ?? 0)) / ticks;
}

/** Starts a reading; `stop()` answers the steal share since, or null where /proc/stat is missing. */
export function stealMeter(): { stop: () => number | null } {
  const read = () => {
    try {
      return cpuTicks(readFileSync('/proc/stat', 'utf8'));
    } catch {
      return null;
    }
  };
  const before = read();
  return {
    stop: () => {
      const after = read();
      return before && after ? stealShare(before, after) : null;
    },
  };
}
