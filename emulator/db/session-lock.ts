// One queue for the single PGlite session, shared by the emulator's own queries and wire clients.
import { AsyncLocalStorage } from 'node:async_hooks';

interface Hold {
  active: boolean;
  /** Work that re-entered the hold and has not settled yet. */
  inside: Set<Promise<unknown>>;
}

/**
 * PGlite is one Postgres session. A wire client's transaction (or extended-protocol exchange)
 * must not interleave with the emulator's queries, so both take turns through this FIFO lock.
 * Code already running under the lock (inside db.transaction, say) re-enters without waiting,
 * as it would on PGlite alone; callbacks that outlive the hold queue like everyone else.
 *
 * Async work started inside a hold inherits it (AsyncLocalStorage), even when nobody awaits it:
 * a query fired and forgotten inside db.transaction re-enters, then waits for PGlite's own
 * transaction mutex and only runs once the transaction is over. Were the session handed on at
 * that point, that query's Parse/Bind/Execute would interleave with the next holder's — a wire
 * client's extended-protocol exchange, which PGlite's mutexes do not guard ("bind message
 * supplies 1 parameters, but prepared statement "" requires 0", SQLSTATE 08P01). So a hold is
 * only given back once everything that re-entered it has settled.
 */
export class SessionLock {
  private tail: Promise<void> = Promise.resolve();
  private readonly holder = new AsyncLocalStorage<Hold>();

  /** Waits for the session, then returns the function that hands it on. */
  async acquire(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => released);
    await previous;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      release();
    };
  }

  /**
   * Runs fn as code that does not hold the session, even when called from inside a hold —
   * for NOTIFY callbacks, which PGlite calls from within the query that received them.
   */
  outside<T>(fn: () => T): T {
    return this.holder.exit(fn);
  }

  /** Runs fn holding the session (or within the current hold). */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const current = this.holder.getStore();
    if (current?.active) {
      const work = fn();
      current.inside.add(work);
      const settled = () => void current.inside.delete(work);
      work.then(settled, settled);
      return work;
    }
    const release = await this.acquire();
    const hold: Hold = { active: true, inside: new Set() };
    try {
      return await this.holder.run(hold, fn);
    } finally {
      // Still active meanwhile, so work re-entering from inside those can still proceed.
      while (hold.inside.size) await Promise.allSettled([...hold.inside]);
      hold.active = false;
      release();
    }
  }
}
