// Writing process-queue's send results (SPEC §9): record_deliveries in groups, one writer per
// function process, and the queue's RPCs run again when Postgres picks them as a deadlock victim.
import { adminClient } from './db.ts';
import { AppError } from './errors.ts';
import { writeGroups } from './write-groups.ts';

/** Deadlock or serialization failure: Postgres rolled the whole transaction back, so it may run again. */
const TRANSIENT_SQL_ERRORS = new Set(['40P01', '40001']);

/**
 * rpc() for the queue's own functions, run again (up to three times) when Postgres picked it as a
 * deadlock victim: many runs lock claim, heartbeat and result rows at once, and a run that gave up
 * there would leave its claimed rows waiting for the claim timeout.
 */
export async function queueRpc<T>(name: string, args: Record<string, unknown>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const { data, error } = await adminClient().rpc(name, args);
    if (!error) return data as T;
    if (attempt < 3 && TRANSIENT_SQL_ERRORS.has(error.code ?? '')) {
      console.warn(`rpc ${name}: ${error.message}; trying again`);
      await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
      continue;
    }
    // As rpc() answers it: a catalogue error raised by the function, else internal.
    const match = /^postbox:([a-z_]+)(?::\s*(.*))?$/.exec(error.message ?? '');
    if (match) throw new AppError(match[1] as never, match[2] || undefined);
    console.error(`rpc ${name} failed`, error);
    throw new AppError('internal');
  }
}

/** At most this many results in one write (a claim's batch). */
const GROUP_LIMIT = 100;
/**
 * A group smaller than that waits this long for company before it is written. Writing at once gave
 * groups of ~30 on a busy send, and each write has a fixed cost (an HTTP round trip, the campaign
 * row's lock and update), which on PGlite runs on the emulator's only thread. The lanes waiting for
 * their result to be written hold no SMTP slot meanwhile.
 */
const GROUP_WAIT_MS = 10;
/** A temporary failure on the last of these attempts is a failure (SPEC §9). */
export const MAX_ATTEMPTS = 3;

export type Outcome = 'sent' | 'deferred' | 'failed';

export interface DeliveryResult {
  campaign_id: string;
  subscriber_id: string;
  claim_token: string;
  outcome: Outcome;
  message_id: string | null;
  error: string | null;
  /** When the mail server accepted it (the group is written a moment later). */
  sent_at: string | null;
}

/** What became of one result: its outcome (null: the row had been reclaimed), and whether it finished its campaign. */
export interface Recorded {
  outcome: Outcome | null;
  finished: boolean;
}

/**
 * Writes a result with record_deliveries, in groups shared by every run in this process (see
 * write-groups.ts): a busy process thus makes one round trip, and takes each campaign row lock
 * once, per group instead of per message, and its runs never queue behind each other for that lock.
 * Resolves once the result is written (rejects with the write's error).
 */
export const recordResult = writeGroups<DeliveryResult, Recorded>(
  async (group) => {
    const { outcomes, finished } = await queueRpc<{
      outcomes: Record<string, Outcome>;
      finished: string[];
    }>('record_deliveries', { p_results: group, p_max_attempts: MAX_ATTEMPTS });
    const unfinished = new Set(finished);
    // A campaign finished by this group is counted once, by the first of its results here.
    return group.map((result) => ({
      outcome: outcomes[`${result.campaign_id}/${result.subscriber_id}`] ?? null,
      finished: unfinished.delete(result.campaign_id),
    }));
  },
  { limit: GROUP_LIMIT, waitMs: GROUP_WAIT_MS },
);
