// Unit tests: reading process CPU time and sharing it among requests.
import { describe, expect, it } from 'vitest';
import { CpuBudget, cpuMsFromStat, processCpuMs } from './cpu.js';

describe('cpuMsFromStat', () => {
  it('adds utime and stime (clock ticks of 10 ms)', () => {
    const stat = '4242 (deno) S 1 4242 1 0 -1 4194560 900 0 0 0 150 25 0 0 20 0 9 0 100';
    expect(cpuMsFromStat(stat)).toBe(1750);
  });
  it('copes with spaces and parentheses in the command name', () => {
    const stat = '7 (a (b) c) R 1 7 1 0 -1 0 0 0 0 0 3 4 0 0';
    expect(cpuMsFromStat(stat)).toBe(70);
  });
  it('rejects lines it cannot read', () => {
    expect(cpuMsFromStat('garbage')).toBeNull();
  });
});

describe('processCpuMs', () => {
  it.runIf(process.platform === 'linux')('reads this process’s CPU time', async () => {
    expect(await processCpuMs(process.pid)).toBeGreaterThan(0);
  });
  it('answers null for a process that does not exist', async () => {
    expect(await processCpuMs(2 ** 30)).toBeNull();
  });
});

describe('CpuBudget', () => {
  it('charges a lone request all of the CPU', () => {
    const budget = new CpuBudget(2000);
    const t = budget.open();
    expect(budget.charge(1500)).toBe(false);
    expect(budget.charge(600)).toBe(true);
    expect(t.usedMs).toBe(2100);
  });
  it('shares CPU among concurrent requests', () => {
    const budget = new CpuBudget(2000);
    const a = budget.open();
    const b = budget.open();
    expect(budget.charge(3000)).toBe(false);
    expect(a.usedMs).toBe(1500);
    budget.close(b);
    expect(budget.charge(600)).toBe(true);
    expect(a.usedMs).toBe(2100);
    expect(b.usedMs).toBe(1500);
  });
  it('charges nobody when idle', () => {
    const budget = new CpuBudget(10);
    expect(budget.charge(1000)).toBe(false);
    expect(budget.open().usedMs).toBe(0);
  });
});
