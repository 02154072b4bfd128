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

/** Reports a value (throttled, never throwing); `settle` waits for the reports already sent. */
export interface ProgressReporter<T> {
  (value: T): void;
  /**
   * Resolves once every report sent so far has been delivered or has failed, or after `maxMs`,
   * whichever is first: the work answers after its last progress report, not before it.
   */
  settle(maxMs: number): Promise<void>;
}

/** The first value goes at once, then at most one per interval; failures are warned about once. */
export function progressReporter<T>(options: ProgressReporterOptions<T>): ProgressReporter<T> {
  let warned = false;
  const inFlight = new Set<Promise<void>>();
  const report = (value: T) => {
    let sending: Promise<void>;
    try {
      sending = options.send(value);
    } catch (error) {
      sending = Promise.reject(error);
    }
    const done = sending.then(
      () => {},
      (error: unknown) => {
        if (!warned) options.warn(error);
        warned = true;
      },
    );
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };
  const reporter = throttled(options.intervalMs, report, options.now) as ProgressReporter<T>;
  reporter.settle = async (maxMs: number) => {
    if (inFlight.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs)));
    await Promise.race([Promise.all([...inFlight]), timeout]);
    clearTimeout(timer);
  };
  return reporter;
}
