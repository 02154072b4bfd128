// Unit tests for the FIFO lock that shares the one PGlite session.
import { describe, expect, it } from 'vitest';
import { SessionLock } from './session-lock.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('SessionLock', () => {
  it('runs holders one at a time, first come first served', async () => {
    const lock = new SessionLock();
    const order: string[] = [];
    const job = (name: string) =>
      lock.run(async () => {
        order.push(`${name}:start`);
        await tick();
        order.push(`${name}:end`);
      });
    await Promise.all([job('a'), job('b'), job('c')]);
    expect(order).toEqual(['a:start', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end']);
  });

  it('lets code inside a hold re-enter instead of deadlocking', async () => {
    const lock = new SessionLock();
    const result = await lock.run(() => lock.run(async () => 42));
    expect(result).toBe(42);
  });

  it('queues callbacks that run outside the hold, and ones that outlive it', async () => {
    const lock = new SessionLock();
    const order: string[] = [];
    let late: Promise<void> = Promise.resolve();
    await lock.run(async () => {
      late = lock.outside(() => lock.run(async () => void order.push('outside')));
      await tick();
      order.push('holder');
    });
    await late;
    expect(order).toEqual(['holder', 'outside']);
  });

  it('hands the session on only once work that re-entered the hold has settled', async () => {
    const lock = new SessionLock();
    const order: string[] = [];
    let background: Promise<void> = Promise.resolve();
    await lock.run(async () => {
      // Started inside the hold and not awaited: it still belongs to this holder.
      background = lock.run(async () => {
        await tick();
        order.push('background');
      });
      order.push('holder');
    });
    const next = lock.run(async () => void order.push('next'));
    await Promise.all([background, next]);
    expect(order).toEqual(['holder', 'background', 'next']);
  });

  it('hands the session on when a holder throws', async () => {
    const lock = new SessionLock();
    await expect(lock.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lock.run(async () => 'next')).resolves.toBe('next');
  });

  it('gives raw acquirers the same queue', async () => {
    const lock = new SessionLock();
    const release = await lock.acquire();
    let ran = false;
    const waiting = lock.run(async () => void (ran = true));
    await tick();
    expect(ran).toBe(false);
    release();
    await waiting;
    expect(ran).toBe(true);
  });
});
