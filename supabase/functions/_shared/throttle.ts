// Fire-and-forget reports (progress of a long export): rate-limited, and a failing send never
// reaches the work it reports on. Pure, with the clock and the send injected, so it is tested
// under Node like the rest of _shared's pure modules; export-progress.ts wires it to Realtime.

/**
 * Wraps `report` so it runs for the first value at once, then for at most one value per
 * `intervalMs`; values in between are dropped (the next one sent carries the newer state).
 */
export function throttled<T>(
  intervalMs: number,
  report: (value: T) => void,
  now: () => number = Date.now,
): (value: T) => void {
  let last: number | null = null;
  return (value) => {
    const at = now();
    if (last !== null && at - last < intervalMs) return;
    last = at;
    report(value);
  };
}

export interface ProgressReporterOptions<T> {
  /** Delivers one report; a rejection counts as a failed report. */
  send: (value: T) => Promise<void>;
  /** Called for the first failed report only: one line in the log, not one per report. */
  warn: (error: unknown) => void;
  intervalMs: number;
  now?: () => number;
}

/** The first value goes at once, then at most one per interval; failures are warned about once. */
export function progressReporter<T>(options: ProgressReporterOptions<T>): (value: T) => void {
  let warned = false;
  const report = (value: T) => {
    let sending: Promise<void>;
    try {
      sending = options.send(value);
    } catch (error) {
      sending = Promise.reject(error);
    }
    sending.catch((error: unknown) => {
      if (!warned) options.warn(error);
      warned = true;
    });
  };
  return throttled(options.intervalMs, report, options.now);
}
