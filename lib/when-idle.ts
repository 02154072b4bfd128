// Work a page can do a moment later, in a task of its own once the browser is idle: reading again
// what the exported HTML already shows, connecting Realtime for a live figure. Done in the effects
// of hydration instead, it joined one long task that blocked the main thread of a phone for ~90 ms
// of Lighthouse's simulated Total Blocking Time (issue 22). Each call is its own idle callback, so
// the browser can run other input between them.

/** The longest the browser may wait for an idle moment before running the work anyway. */
const IDLE_TIMEOUT_MS = 2000;
/** Where there is no requestIdleCallback (Safari): shortly after the current work. */
const FALLBACK_DELAY_MS = 50;

/** Runs `work` when the browser is idle; returns a function that cancels it if it has not run. */
export function whenIdle(work: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(() => work(), { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(work, FALLBACK_DELAY_MS);
  return () => clearTimeout(timer);
}
