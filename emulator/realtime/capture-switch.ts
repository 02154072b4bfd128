// Which tables this service has capture switched on for (setup.sql _realtime.listened()), and the join's wait for writers.
import type { Db } from '../db/types.js';
import type { Subscriber } from './hub.js';
import { SQL } from './sql.js';

/** A table capture is switched on for, or (null names) all tables; `id` tells them apart. */
interface ListenKey {
  id: string;
  schema: string | null;
  table: string | null;
}

const ALL_TABLES: ListenKey = { id: '*', schema: null, table: null };
/** How long a join waits at most for writes that began before capture was switched on. */
const WRITER_WAIT_MS = 5000;

/** The tables a subscriber's bindings hear; a binding without a table (or schema) hears all. */
function keysOf(sub: Subscriber): ListenKey[] {
  return sub.bindings.map((b) =>
    !b.table || b.table === '*' || b.schema === '*'
      ? ALL_TABLES
      : { id: JSON.stringify([b.schema, b.table]), schema: b.schema, table: b.table },
  );
}

/**
 * Capture triggers build messages only for tables some service listens to. Each subscriber with
 * live bindings is watched from its join until it leaves; callers serialise arm/disarm with the
 * rest of their catalogue work.
 */
export class CaptureSwitch {
  private readonly watchers = new Map<Subscriber, ListenKey[]>();
  /** Tables this service has switched capture on for, by key. */
  private readonly armed = new Map<string, ListenKey>();

  constructor(private readonly db: Db) {}

  /** Counts the subscriber in before its tables are armed, so no disarm pass drops them meanwhile. */
  watch(sub: Subscriber): void {
    this.watchers.set(sub, keysOf(sub));
  }

  /** The subscriber left (or never got its reply); its tables go off at the next disarm pass. */
  release(sub: Subscriber): void {
    this.watchers.delete(sub);
  }

  /**
   * Switches capture on for a watched subscriber's tables before its join is answered. A write
   * that ran its capture trigger while capture was off may still be uncommitted; this waits for
   * those transactions, so any change committed after SUBSCRIBED was captured (as creating a
   * trigger waits for writers).
   */
  async arm(sub: Subscriber): Promise<void> {
    const fresh = (this.watchers.get(sub) ?? []).filter((k) => !this.armed.has(k.id));
    if (!fresh.length) return;
    for (const key of fresh) {
      await this.db.query(SQL.arm, [key.schema, key.table]);
      this.armed.set(key.id, key);
    }
    // PGlite is one session: the arm ran between transactions, so none can be in flight.
    if (this.db.kind === 'pglite') return;
    const { rows } = await this.db.query<{ xids: string[] }>(SQL.writers);
    const xids = rows[0]?.xids ?? [];
    const deadline = Date.now() + WRITER_WAIT_MS;
    while (xids.length && Date.now() < deadline) {
      const left = await this.db.query<{ open: number }>(SQL['writers-left'], [xids]);
      if (!left.rows[0]?.open) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Armed tables no watched subscriber hears any more. */
  idle(): ListenKey[] {
    const heard = new Set([...this.watchers.values()].flat().map((k) => k.id));
    return [...this.armed.values()].filter((k) => !heard.has(k.id));
  }

  /** Writes to these tables stop building messages (unless another service listens). */
  async disarm(keys: ListenKey[]): Promise<void> {
    for (const key of keys) {
      if (!this.armed.has(key.id)) continue;
      await this.db.query(SQL.disarm, [key.schema, key.table]);
      this.armed.delete(key.id);
    }
  }

  /** The service stops. */
  async disarmAll(): Promise<void> {
    this.watchers.clear();
    await this.disarm([...this.armed.values()]);
  }
}
