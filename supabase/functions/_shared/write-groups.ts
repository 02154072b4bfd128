// Single results written in groups: what delivery-results.ts uses to record process-queue's sends
// with one round trip per group instead of one per message. (No Deno APIs here, so the unit test
// runs it under Node with fake timers.)

export interface GroupOptions {
  /** At most this many items in one write. */
  limit: number;
  /** A group smaller than `limit` waits this long after its oldest item for company. */
  waitMs: number;
}

/**
 * Returns `add(item)`, which resolves with that item's answer once a write of its group is done.
 * A group is written once it has `limit` items or its oldest has waited `waitMs`, and never while
 * another write is under way; items that did not fit go as soon as that write is done, since they
 * have waited as long. `write` answers its items in their order; if it fails, every item of the
 * group is rejected with its error.
 */
export function writeGroups<T, R>(
  write: (items: T[]) => Promise<R[]>,
  { limit, waitMs }: GroupOptions,
): (item: T) => Promise<R> {
  let pending: { item: T; resolve: (r: R) => void; reject: (e: Error) => void }[] = [];
  let writing = false;
  /** Armed by the oldest pending item; `due` once it fired (the write may wait for the one under way). */
  let timer: ReturnType<typeof setTimeout> | null = null;
  let due = false;

  const schedule = (): void => {
    if (pending.length === 0) return;
    if (due || pending.length >= limit) flush();
    else
      timer ??= setTimeout(() => {
        timer = null;
        due = true;
        flush();
      }, waitMs);
  };

  const flush = (): void => {
    if (writing || pending.length === 0) return;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    writing = true;
    const group = pending.slice(0, limit);
    pending = pending.slice(limit);
    due = pending.length > 0;
    write(group.map((g) => g.item))
      .then((answers) => group.forEach((g, i) => g.resolve(answers[i]!)))
      .catch((error: unknown) => {
        const failure = error instanceof Error ? error : new Error(String(error));
        for (const g of group) g.reject(failure);
      })
      .finally(() => {
        writing = false;
        schedule();
      });
  };

  return (item) =>
    new Promise<R>((resolve, reject) => {
      pending.push({ item, resolve, reject });
      schedule();
    });
}
