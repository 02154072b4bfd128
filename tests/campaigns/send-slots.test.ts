import { describe, expect, it } from 'vitest';
import { sendSlots } from '../../supabase/functions/_shared/send-slots';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('sendSlots', () => {
  it('never runs more than the limit at once, and starts waiters in arrival order', async () => {
    const run = sendSlots(3);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        run(async () => {
          started.push(i);
          running += 1;
          most = Math.max(most, running);
          await tick();
          running -= 1;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('frees the slot of a task that throws, and passes its error on', async () => {
    const run = sendSlots(1);
    await expect(run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(run(async () => 'next')).resolves.toBe('next');
  });

  it('returns each task its own result', async () => {
    const run = sendSlots(2);
    const results = await Promise.all(
      [1, 2, 3, 4].map((n) => run(async () => (await tick(), n * 10))),
    );
    expect(results).toEqual([10, 20, 30, 40]);
  });
});
