// What one process-queue run is given and what it answers: shared by the queue (campaign-queue.ts)
// and the worker that sends (campaign-worker.ts), so neither imports the other for them.

export interface QueueOptions {
  /** Stop claiming and sending after this long (the function answers within it). */
  budgetMs: number;
  /** Claims older than this return to the queue (SPEC §9: 10 minutes). */
  claimTimeoutSeconds: number;
  /** Messages in flight at once within this worker. */
  concurrency: number;
  /**
   * Stop claiming after this many messages: a run must stay within the platform's CPU limit per
   * request (2 s on hosted Supabase), so a fast queue is drained by successive runs instead.
   */
  maxMessages: number;
  /**
   * Called once when the run has claimed maxMessages (work may be left): the caller starts the next
   * run then, so it gets going while this one sends its last batch.
   */
  onMore?: () => void;
  /** Fault injection for tests: stop dead after this many sends, leaving the claim as a crash would. */
  abandonAfter?: number;
}

export interface QueueResult {
  claimed: number;
  sent: number;
  deferred: number;
  failed: number;
  campaigns_finished: number;
  /** True when the run stopped at maxMessages with work possibly left (the caller starts another). */
  more: boolean;
}
