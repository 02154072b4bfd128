// Rate limiting of fire-and-forget reports (progress of a long export): pure, with the clock
// injected, so it is tested under Node like the rest of _shared's pure modules.

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
