// The database side of an import run: batches are reserved one after another in file order (so
// the first occurrence of an address wins, SPEC §5) and applied up to `parallel` at a time (so
// both cores work while the parser reads on). See migration 20261122310100 for the SQL rules.
import { rpc } from './db.ts';
import type { BadRow, ImportRow } from './csv-rows.ts';

export interface ImportBatch {
  /** Data rows before this batch (its first row's index). */
  from: number;
  /** Data rows it covers, good and bad. */
  records: number;
  /** Byte offset and physical line in the file where the batch ends. */
  offset: number;
  line: number;
  rows: ImportRow[];
  bad: BadRow[];
  /** The file's last batch: applying it ends the import. */
  done: boolean;
}

export interface BatchTiming {
  reserveMs: number;
  applyMs: number;
  waitMs: number;
}

export class BatchPipeline {
  private reserved: Promise<unknown> = Promise.resolve();
  private readonly inFlight = new Set<Promise<void>>();
  private failure: { error: unknown } | null = null;
  /** Batches whose apply committed in this run. */
  applied = 0;
  readonly timing: BatchTiming = { reserveMs: 0, applyMs: 0, waitMs: 0 };

  constructor(
    private readonly importId: string,
    private readonly token: string,
    private readonly parallel: number,
    private readonly leaseSeconds: number,
  ) {}

  /** Queues a batch; waits first while `parallel` batches are in flight. Throws a failed batch's error. */
  async add(batch: ImportBatch): Promise<void> {
    const waited = performance.now();
    while (this.inFlight.size >= this.parallel && !this.failure) {
      await Promise.race(this.inFlight);
    }
    this.timing.waitMs += performance.now() - waited;
    this.throwIfFailed();
    // A reservation starts only after the previous one committed; a failed one fails every later
    // one, so no batch is ever reserved out of order.
    const reservation = this.reserved.then(() => this.reserve(batch));
    this.reserved = reservation;
    const tracked: Promise<void> = reservation
      .then(() => this.apply(batch))
      .catch((error) => {
        this.failure ??= { error };
      })
      .finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  /** Waits until every queued batch has committed or failed; throws the first failure. */
  async drain(): Promise<void> {
    await this.settle();
    this.throwIfFailed();
  }

  /** Like drain, without throwing (a run that is stopping for another reason). */
  async settle(): Promise<void> {
    const waited = performance.now();
    while (this.inFlight.size > 0) await Promise.race(this.inFlight);
    this.timing.waitMs += performance.now() - waited;
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }

  private async reserve(batch: ImportBatch): Promise<void> {
    const started = performance.now();
    await rpc('reserve_import_batch', {
      p_import_id: this.importId,
      p_token: this.token,
      p_from: batch.from,
      p_records: batch.records,
      p_offset: batch.offset,
      p_line: batch.line,
      p_emails: batch.rows.map((row) => row.email),
      p_lines: batch.rows.map((row) => row.line),
    });
    this.timing.reserveMs += performance.now() - started;
  }

  private async apply(batch: ImportBatch): Promise<void> {
    const started = performance.now();
    await rpc('apply_import_batch', {
      p_import_id: this.importId,
      p_token: this.token,
      p_from: batch.from,
      p_rows: batch.rows,
      p_bad: batch.bad,
      p_done: batch.done,
      p_lease_seconds: this.leaseSeconds,
    });
    this.applied++;
    this.timing.applyMs += performance.now() - started;
  }
}
