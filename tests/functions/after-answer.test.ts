// Work after the answer (afterAnswer, supabase/functions/_shared/http.ts; sendInBackground builds
// and sends the signup mail through it): nothing of the task may run before the handler's
// Response is written, i.e. not in the microtasks that follow the handler returning, or the
// answer's timing tells whether a mail is being built (SPEC §7, no enumeration).
import { afterEach, describe, expect, it, vi } from 'vitest';

const { afterAnswer } = (await import(
  /* @vite-ignore */ new URL('../../supabase/functions/_shared/http.ts', import.meta.url).href
)) as {
  afterAnswer: (task: () => unknown, onError: (error: unknown) => void) => Promise<void>;
};

type Runtime = { EdgeRuntime?: { waitUntil(promise: Promise<unknown>): void } };

/** Lets every queued microtask (and the ones they queue) run, but no timer. */
async function drainMicrotasks(): Promise<void> {
  for (let i = 0; i < 1000; i++) await null;
}

afterEach(() => {
  delete (globalThis as Runtime).EdgeRuntime;
});

describe('afterAnswer', () => {
  it('runs none of the task before a macrotask turn, then all of it', async () => {
    const steps: string[] = [];
    // A handler as the functions write them: start the background work, then answer.
    const handler = async () => {
      void afterAnswer(
        () => steps.push('build'),
        () => steps.push('error'),
      );
      return new Response('{}');
    };
    await handler();
    steps.push('answered');
    await drainMicrotasks();
    expect(steps).toEqual(['answered']);
    await vi.waitFor(() => expect(steps).toEqual(['answered', 'build']));
  });

  it('hands the platform the whole task with waitUntil, at once', async () => {
    const waited: Promise<unknown>[] = [];
    (globalThis as Runtime).EdgeRuntime = { waitUntil: (promise) => waited.push(promise) };
    let sent = false;
    const done = afterAnswer(
      async () => {
        await null;
        sent = true;
      },
      () => undefined,
    );
    expect(waited).toEqual([done]);
    await done;
    expect(sent).toBe(true);
  });

  it('gives a failure, thrown or rejected, to onError and never rejects', async () => {
    const errors: unknown[] = [];
    const thrown = new Error('build failed');
    const rejected = new Error('send failed');
    await afterAnswer(
      () => {
        throw thrown;
      },
      (error) => errors.push(error),
    );
    await afterAnswer(
      () => Promise.reject(rejected),
      (error) => errors.push(error),
    );
    expect(errors).toEqual([thrown, rejected]);
  });
});
