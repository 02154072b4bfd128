import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeGroups } from '../../supabase/functions/_shared/write-groups';

/** A writer whose calls the test finishes by hand; answers each item with its double. */
function heldWriter() {
  const calls: { items: number[]; finish: () => void; fail: (e: Error) => void }[] = [];
  const write = (items: number[]) =>
    new Promise<number[]>((resolve, reject) => {
      calls.push({ items, finish: () => resolve(items.map((n) => n * 2)), fail: reject });
    });
  return { calls, write };
}

/** Lets settled promises run their callbacks (fake timers do not hold microtasks back). */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('writeGroups', () => {
  it('waits waitMs after the oldest item for company, then writes the group once', async () => {
    const { calls, write } = heldWriter();
    const add = writeGroups(write, { limit: 100, waitMs: 10 });
    const answers = [add(1), add(2)];
    await vi.advanceTimersByTimeAsync(6);
    answers.push(add(3)); // joins the waiting group; the clock still runs from the oldest
    await vi.advanceTimersByTimeAsync(3);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((c) => c.items)).toEqual([[1, 2, 3]]);
    calls[0]!.finish();
    expect(await Promise.all(answers)).toEqual([2, 4, 6]);
  });

  it('writes a full group at once, without waiting', async () => {
    const { calls, write } = heldWriter();
    const add = writeGroups(write, { limit: 3, waitMs: 10 });
    const answers = [add(1), add(2), add(3)];
    await settle();
    expect(calls.map((c) => c.items)).toEqual([[1, 2, 3]]);
    calls[0]!.finish();
    expect(await Promise.all(answers)).toEqual([2, 4, 6]);
  });

  it('never writes while a write is under way; what waited meanwhile goes right after it', async () => {
    const { calls, write } = heldWriter();
    const add = writeGroups(write, { limit: 2, waitMs: 10 });
    const first = [add(1), add(2)];
    const later = [add(3), add(4), add(5)];
    await vi.advanceTimersByTimeAsync(50);
    expect(calls.map((c) => c.items)).toEqual([[1, 2]]);
    calls[0]!.finish();
    await settle();
    // Items 3-5 have waited as long as the first group: the next goes at once, limit-sized.
    expect(calls.map((c) => c.items)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    calls[1]!.finish();
    await settle();
    expect(calls.map((c) => c.items)).toEqual([[1, 2], [3, 4], [5]]);
    calls[2]!.finish();
    expect(await Promise.all([...first, ...later])).toEqual([2, 4, 6, 8, 10]);
  });

  it('rejects every item of a failed group, and goes on with the next', async () => {
    const { calls, write } = heldWriter();
    const add = writeGroups(write, { limit: 2, waitMs: 10 });
    const failed = [add(1), add(2)].map((p) => p.catch((e: Error) => e.message));
    const next = add(3);
    await settle();
    calls[0]!.fail(new Error('deadlock'));
    expect(await Promise.all(failed)).toEqual(['deadlock', 'deadlock']);
    // Item 3 came after that group left, so it waits its own waitMs.
    await vi.advanceTimersByTimeAsync(9);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((c) => c.items)).toEqual([[1, 2], [3]]);
    calls[1]!.finish();
    expect(await next).toBe(6);
  });
});
