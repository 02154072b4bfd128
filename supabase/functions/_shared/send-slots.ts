// A first-come, first-served limit on how many async tasks run at once. campaign-worker.ts uses one
// per function process to cap the campaign messages rendered and handed to the mail transport
// across all its process-queue runs. (No Deno APIs here, so the unit test runs it under Node.)

/** Returns a runner that starts `fn` once fewer than `limit` earlier tasks are still running. */
export function sendSlots(limit: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let busy = 0;
  const waiting: (() => void)[] = [];
  return async (fn) => {
    if (busy < limit) busy += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      // The slot passes straight to the next waiter, so `busy` never drops while someone waits.
      const next = waiting.shift();
      if (next) next();
      else busy -= 1;
    }
  };
}
