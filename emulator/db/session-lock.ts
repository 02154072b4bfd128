// One queue for the single PGlite session, shared by the emulator's own queries and wire clients.
import { AsyncLocalStorage } from 'node:async_hooks';

interface Hold {
  active: boolean;
}

/**
 * PGlite is one Postgres session. A wire client's transaction (or extended-protocol exchange)
 * must not interleave with the emulator's queries, so both take turns through this FIFO lock.
 * Code already running under the lock (inside db.transaction, say) re-enters without waiting,
 * as it would on PGlite alone; callbacks that outlive the hold queue like everyone else.
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
    if (this.holder.getStore()?.active) return fn();
    const release = await this.acquire();
    const hold: Hold = { active: true };
    try {
      return await this.holder.run(hold, fn);
    } finally {
      hold.active = false;
      release();
    }
  }
}
