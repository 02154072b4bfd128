// postgres_changes: capture triggers on publication supabase_realtime's tables, and delivery with filters and RLS (contract §4.3).
import type { Db } from '../db/types.js';
import { FilterError, parseFilter } from './filters.js';
import type { Hub, PgBinding, Subscriber } from './hub.js';
import { CaptureSwitch } from './capture-switch.js';
import { reconcileCaptureTriggers } from './capture-triggers.js';
import { SETUP_SQL, SQL } from './sql.js';
import { TableCatalog, type TableShape } from './tables.js';

/** Bindings of one subscriber that share a column selection, and so one message. */
interface OutputGroup {
  ids: number[];
  select: string[] | undefined;
}

/** One change as delivery sees it (walrus's view of one wal2json row). */
interface CapturedChange {
  relid: number;
  schema: string;
  table: string;
  type: 'INSERT' | 'UPDATE' | 'DELETE';
  /** Row security was on for the table when the row changed. */
  rls: boolean;
  commit_timestamp: string;
  record: Record<string, unknown> | null;
  old_record: Record<string, unknown> | null;
}

/**
 * What the capture triggers (setup.sql) notify: several rows of one statement on one table, in
 * order, each `[record, old_record]` — or `{id}` of a pack stored in `_realtime.changes`.
 */
interface CapturedPack extends Omit<CapturedChange, 'record' | 'old_record'> {
  rows: Array<[CapturedChange['record'], CapturedChange['old_record']]>;
}

const EVENTS = ['*', 'INSERT', 'UPDATE', 'DELETE'];
/** How often publication membership and catalogue caches are refreshed while anyone listens. */
const REFRESH_MS = 1000;
const PURGE_EVERY = 30;

const pick = (record: Record<string, unknown> | null, allowed: Set<string>) =>
  Object.fromEntries(Object.entries(record ?? {}).filter(([k]) => allowed.has(k)));

export class ChangeFeed {
  private readonly catalog: TableCatalog;
  private queue: Promise<void> = Promise.resolve();
  private reconciling: Promise<void> = Promise.resolve();
  private ticking = false;
  private ticks = 0;
  private timer: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private readonly capture: CaptureSwitch;

  constructor(
    private readonly db: Db,
    private readonly hub: Hub,
    private readonly log: (message: string, err?: unknown) => void,
  ) {
    this.catalog = new TableCatalog(db);
    this.capture = new CaptureSwitch(db);
  }

  async start(): Promise<void> {
    await this.db.exec(SETUP_SQL);
    this.unlisten = await this.db.listen('_realtime_change', (payload) => {
      this.queue = this.queue
        .then(() => this.handle(payload))
        .catch((err) => this.log('[realtime] change delivery failed', err));
    });
    await this.reconcile();
    this.timer = setInterval(() => {
      if (this.ticking) return;
      const listening = [...this.hub.all()].some((s) => s.bindings.length);
      if (!listening && !this.capture.idle().length) return;
      this.ticking = true;
      this.catalog.clear();
      // Leftover oversized changes are rare; sweep them every PURGE_EVERY ticks only.
      const purge = ++this.ticks % PURGE_EVERY === 0;
      this.serial(async () => {
        if (listening) await reconcileCaptureTriggers(this.db);
        // Checked inside the queue: a join queued its arm() after this, or is already counted.
        await this.capture.disarm(this.capture.idle());
      })
        .then(() => (purge ? this.db.query(SQL['purge-changes']) : undefined))
        .catch((err) => this.log('[realtime] publication refresh failed', err))
        .finally(() => (this.ticking = false));
    }, REFRESH_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.serial(() => this.capture.disarmAll()).catch(() => undefined);
    await this.unlisten?.();
    await this.queue;
    await this.reconciling;
  }

  /**
   * Puts the capture triggers on every table of publication supabase_realtime and takes them off
   * tables that left it. Runs at start, on each subscription and every REFRESH_MS.
   */
  reconcile(): Promise<void> {
    return this.serial(() => reconcileCaptureTriggers(this.db));
  }

  /**
   * Runs catalogue work (reconcile, arm, disarm) one after another; each call gets a run of its
   * own that starts after it was made, so a subscription never relies on a run that read the
   * catalogue before its table was added.
   */
  private serial(fn: () => Promise<void>): Promise<void> {
    const run = this.reconciling.then(fn);
    this.reconciling = run.catch(() => undefined);
    return run;
  }

  /** The subscriber left (or never got its reply); capture goes off with the last one. */
  release(sub: Subscriber): void {
    this.capture.release(sub);
  }

  /**
   * Checks the bindings of a new join against the catalogue and makes sure capture is in place
   * before the join is answered, so events written after SUBSCRIBED are never missed.
   * Returns the problems found (empty when the bindings are live).
   */
  async prepare(sub: Subscriber, raw: unknown[]): Promise<string[]> {
    const problems: string[] = [];
    for (const [i, binding] of sub.bindings.entries()) {
      const problem = await this.check(sub, binding, raw[i]);
      if (problem) problems.push(problem);
    }
    if (problems.length) return problems;
    this.capture.watch(sub);
    try {
      await this.serial(async () => {
        await reconcileCaptureTriggers(this.db);
        await this.capture.arm(sub);
      });
    } catch (err) {
      this.capture.release(sub);
      throw err;
    }
    for (const binding of sub.bindings) binding.ready = true;
    return problems;
  }

  /** After the join reply, upstream reports the outcome with a `system` message. */
  announce(sub: Subscriber, problems: string[]): void {
    if (problems.length) this.system(sub, 'error', problems.join('; '));
    else this.system(sub, 'ok', 'Subscribed to PostgreSQL');
  }

  private system(sub: Subscriber, status: 'ok' | 'error', message: string) {
    sub.outlet.push({
      joinRef: sub.joinRef,
      ref: null,
      topic: sub.topic,
      event: 'system',
      payload: { message, status, extension: 'postgres_changes', channel: sub.subTopic },
    });
  }

  private async check(sub: Subscriber, binding: PgBinding, raw: unknown): Promise<string | null> {
    const r = (raw ?? {}) as Record<string, unknown>;
    // Upstream's wording when it cannot set up a subscription (realtime PostgresCdcRls).
    const params = `[event: ${String(r.event)}, schema: ${String(r.schema)}, table: ${String(r.table ?? '*')}, filters: ${JSON.stringify(r.filter ? [r.filter] : [])}]`;
    const fail = (why: string) =>
      `Unable to subscribe to changes with given parameters. ${why}. Please check Realtime is enabled for the given connect parameters: ${params}`;
    if (!EVENTS.includes(String(r.event).toUpperCase())) return fail('Unknown event');
    if (typeof r.schema !== 'string' || !r.schema) return fail('schema is required');
    if (r.select !== undefined && (!Array.isArray(r.select) || r.select.length === 0)) {
      // Worded as walrus subscription_check_filters().
      return fail(
        'selected_columns cannot be empty. Remove the select parameter to capture all columns',
      );
    }
    try {
      binding.filter = parseFilter(r.filter);
    } catch (err) {
      if (err instanceof FilterError) return fail(err.message);
      throw err;
    }
    if (!binding.table || binding.table === '*') {
      if (binding.filter) return fail('A filter needs a table');
      if (r.select !== undefined) return fail('A select list needs a table');
      return null;
    }
    if (binding.schema === '*') return fail('A table needs a schema');
    const relid = await this.catalog.relid(binding.schema, binding.table);
    if (relid === null) return fail(`Table ${binding.schema}.${binding.table} does not exist`);
    const shape = await this.catalog.shape(relid, binding.schema, binding.table);
    // As walrus subscription_check_filters(): a select list and filters may name only columns
    // the caller's role may SELECT. Checked when joining, so a filter never runs on a column the
    // role cannot read: `email=eq.<address>` on a table whose rows it cannot see would otherwise
    // say, by which changes reach it, whether that address was written.
    const readable = (await this.catalog.roleView(sub.identity.role, relid)).columns;
    if (r.select !== undefined) {
      // Column selection (contract §4.3, E), worded as walrus subscription_check_filters().
      for (const name of r.select as unknown[]) {
        if (!shape?.columns.some((c) => c.name === name) || !readable.has(String(name))) {
          return fail(`invalid column for select ${String(name)}`);
        }
      }
      binding.select = (r.select as string[]).slice();
    }
    for (const cond of binding.filter?.conditions ?? []) {
      if (!shape?.columns.some((c) => c.name === cond.column)) {
        return fail(`Column ${cond.column} does not exist`);
      }
      if (!readable.has(cond.column)) return fail(`invalid column for filter ${cond.column}`);
    }
    return null;
  }

  private async handle(payload: string): Promise<void> {
    let pack = JSON.parse(payload) as CapturedPack | { id: number };
    if ('id' in pack) {
      const { rows } = await this.db.query<{ message: CapturedPack }>(SQL['take-change'], [
        pack.id,
      ]);
      if (!rows[0]) return;
      pack = rows[0].message;
    }
    const { rows, ...about } = pack;
    // A change stored by an older emulator (no `rows`) is dropped, as a change nobody reads is.
    if (!Array.isArray(rows)) return;
    // A bulk write nobody listens to costs one check per pack, not per row.
    if (
      ![...this.hub.all()].some((sub) => sub.bindings.some((b) => this.bindingApplies(b, about)))
    ) {
      return;
    }
    for (const [record, old_record] of rows) await this.deliver({ ...about, record, old_record });
  }

  private bindingApplies(b: PgBinding, c: Pick<CapturedChange, 'schema' | 'table' | 'type'>) {
    return (
      b.ready &&
      (b.schema === '*' || b.schema === c.schema) &&
      (!b.table || b.table === '*' || b.table === c.table) &&
      (b.event === '*' || b.event === c.type)
    );
  }

  private async deliver(change: CapturedChange): Promise<void> {
    let shape = await this.catalog.shape(change.relid, change.schema, change.table);
    const row = change.record ?? change.old_record ?? {};
    if (shape && Object.keys(row).some((k) => !shape!.columns.some((c) => c.name === k))) {
      // The table gained a column since the catalogue was cached.
      this.catalog.clear();
      shape = await this.catalog.shape(change.relid, change.schema, change.table);
    }
    if (!shape) return;
    // DELETE filters see only what is in old_record (identity columns unless REPLICA IDENTITY FULL).
    const filtered = change.type === 'DELETE' ? change.old_record : change.record;
    const targets: Array<{ sub: Subscriber; groups: Map<string, OutputGroup> }> = [];
    for (const sub of [...this.hub.all()]) {
      // Bindings with different column selections get messages of their own (walrus groups
      // subscriptions by output the same way).
      const groups = new Map<string, OutputGroup>();
      // A role that may not read the table gets the "Error 401" event on every binding, filters
      // or not, as walrus answers it before looking at filters (and without running them on
      // columns the role cannot read, e.g. after its token changed to a lesser role).
      const unauthorized = !(await this.catalog.roleView(sub.identity.role, shape.relid)).canSelect;
      for (const b of sub.bindings) {
        if (!this.bindingApplies(b, change)) continue;
        if (b.filter && !unauthorized && !(await this.catalog.matches(shape, b.filter, filtered))) {
          continue;
        }
        const key = b.select ? JSON.stringify(b.select) : '*';
        let group = groups.get(key);
        if (!group) groups.set(key, (group = { ids: [], select: b.select }));
        group.ids.push(b.id);
      }
      if (groups.size > 0) targets.push({ sub, groups });
    }
    const seen = await this.rowVisibility(
      change,
      shape,
      targets.map((t) => t.sub),
    );
    for (const { sub, groups } of targets) {
      for (const { ids, select } of groups.values()) {
        const data = await this.render(change, shape, sub, select, seen.get(sub));
        if (!data) continue;
        sub.outlet.push({
          joinRef: null,
          ref: null,
          topic: sub.topic,
          event: 'postgres_changes',
          payload: { ids, data },
        });
      }
    }
  }

  /**
   * For an INSERT/UPDATE on an RLS table: which subscribers' SELECT policies let them see the row,
   * checked for all of them in one database call (identical callers checked once).
   */
  private async rowVisibility(
    change: CapturedChange,
    shape: TableShape,
    subs: Subscriber[],
  ): Promise<Map<Subscriber, boolean>> {
    const seen = new Map<Subscriber, boolean>();
    if (change.type === 'DELETE' || !change.rls) return seen;
    const byCaller = new Map<string, Subscriber[]>();
    for (const sub of subs) {
      const view = await this.catalog.roleView(sub.identity.role, shape.relid);
      if (!view.canSelect || view.bypassRls) continue;
      const key = JSON.stringify([sub.identity.role, sub.identity.claims]);
      const same = byCaller.get(key);
      if (same) same.push(sub);
      else byCaller.set(key, [sub]);
    }
    const groups = [...byCaller.values()];
    const answers = await this.catalog.visibleTo(
      shape,
      groups.map((g) => g[0]!.identity),
      change.record,
    );
    groups.forEach((group, i) => group.forEach((sub) => seen.set(sub, answers[i] === true)));
    return seen;
  }

  /**
   * The change as this subscriber may see it (walrus realtime.apply_rls): nothing if their
   * SELECT policy hides an INSERT/UPDATE row; columns they cannot select left out; no SELECT
   * grant at all → the event with `errors: ["Error 401: Unauthorized"]`.
   */
  private async render(
    change: CapturedChange,
    shape: TableShape,
    sub: Subscriber,
    select: string[] | undefined,
    rowVisible: boolean | undefined,
  ) {
    const view = await this.catalog.roleView(sub.identity.role, shape.relid);
    // A select list keeps those columns plus the primary key (walrus selected_columns).
    const visible = select
      ? new Set(
          shape.columns
            .filter((c) => view.columns.has(c.name) && (c.pk || select.includes(c.name)))
            .map((c) => c.name),
        )
      : view.columns;
    const base = {
      schema: change.schema,
      table: change.table,
      commit_timestamp: change.commit_timestamp,
      type: change.type,
    };
    if (!view.canSelect) {
      return { ...base, columns: [], errors: ['Error 401: Unauthorized'] };
    }
    if (change.type !== 'DELETE' && change.rls && !view.bypassRls) {
      if (rowVisible !== true) return null;
    }
    const data: Record<string, unknown> = {
      ...base,
      columns: shape.columns
        .filter((c) => visible.has(c.name))
        .map((c) => ({ name: c.name, type: c.type })),
      errors: null,
    };
    if (change.type !== 'DELETE') data.record = pick(change.record, visible);
    if (change.type !== 'INSERT') {
      // walrus: a DELETE on an RLS table carries only key columns even under REPLICA IDENTITY
      // FULL, since policies cannot be checked against a deleted row.
      const keys = new Set(shape.columns.filter((c) => c.pk).map((c) => c.name));
      const allowed =
        change.type === 'DELETE' && change.rls
          ? new Set([...visible].filter((c) => keys.has(c)))
          : visible;
      data.old_record = pick(change.old_record, allowed);
    }
    return data;
  }
}
