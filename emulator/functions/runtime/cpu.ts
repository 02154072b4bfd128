// CPU time per request of a function process: hosted stops a worker whose request uses over 2 s of CPU.
import { readFile } from 'node:fs/promises';

/** USER_HZ: fixed at 100 by the Linux ABI, the unit of utime/stime in /proc/<pid>/stat. */
const TICKS_PER_SECOND = 100;

/**
 * Parses utime + stime (fields 14 and 15) from a /proc/<pid>/stat line, in milliseconds. The
 * command name (field 2) is in parentheses and may hold spaces, so fields are counted after it.
 */
export function cpuMsFromStat(stat: string): number | null {
  const end = stat.lastIndexOf(')');
  if (end < 0) return null;
  const fields = stat.slice(end + 2).split(' '); // fields[0] is field 3 (state)
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}

/** Total CPU time the process has used, or null where /proc is not available (not Linux). */
export async function processCpuMs(pid: number): Promise<number | null> {
  try {
    return cpuMsFromStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** One request's share of the worker's CPU time. */
export interface CpuTicket {
  usedMs: number;
}

/**
 * Per-request CPU accounting for a process that serves requests concurrently: each CPU delta is
 * shared equally among the requests in flight. A request spinning alone gets 2 s in 2 s; under
 * load every request is charged about its own cost, so busy-but-healthy workers are not killed.
 */
export class CpuBudget {
  private readonly tickets = new Set<CpuTicket>();

  constructor(private readonly limitMs: number) {}

  get size(): number {
    return this.tickets.size;
  }

  open(): CpuTicket {
    const ticket = { usedMs: 0 };
    this.tickets.add(ticket);
    return ticket;
  }

  close(ticket: CpuTicket): void {
    this.tickets.delete(ticket);
  }

  /** Charges `deltaMs` of process CPU; true when some request is now over its limit. */
  charge(deltaMs: number): boolean {
    if (this.tickets.size === 0 || deltaMs <= 0) return false;
    const share = deltaMs / this.tickets.size;
    let over = false;
    for (const ticket of this.tickets) {
      ticket.usedMs += share;
      if (ticket.usedMs > this.limitMs) over = true;
    }
    return over;
  }
}
