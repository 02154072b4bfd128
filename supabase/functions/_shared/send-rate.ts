// The send rate (SPEC §9, POSTBOX_SEND_RATE messages per second, default 10; 0 or "unlimited" = no
// limit), held across every concurrent process-queue worker by one token-bucket row in Postgres.
import { rpc } from './db.ts';

export const DEFAULT_SEND_RATE = 10;

/** Messages per second, or null for no limit; an unreadable value falls back to the default. */
export function parseSendRate(value: string | undefined): number | null {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '') return DEFAULT_SEND_RATE;
  if (text === 'unlimited' || text === '0') return null;
  const rate = Number(text);
  return Number.isFinite(rate) && rate > 0 ? rate : DEFAULT_SEND_RATE;
}

export function sendRate(): number | null {
  return parseSendRate(Deno.env.get('POSTBOX_SEND_RATE'));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Send slots for every run in this process. acquire_send_tokens reserves the next free slots at
 * `rate` per second in the shared row and answers how long until the first comes, so N processes
 * together keep the rate. Slots are reserved in blocks, one reservation at a time, the next asked
 * for while half of the current block is left: a round trip per message would make that one row the
 * limit of a fast rate. A block covers twice the last round trip (at least a tenth of a second of
 * the rate), so slots do not run out while the next block is on its way, whatever the latency.
 */
class SlotDispenser {
  /** Reserved slots (epoch ms), earliest first. */
  private slots: number[] = [];
  private reserving: Promise<void> | null = null;
  private failure: unknown = null;
  private roundTripMs = 100;

  async take(rate: number): Promise<void> {
    for (;;) {
      // Slots left unused for more than the row's burst allowance (a pause, a run that ended) are
      // dropped: using them late would send faster than the rate.
      while (this.slots.length && this.slots[0]! < Date.now() - 250) this.slots.shift();
      if (this.slots.length <= this.blockSize(rate) / 2) {
        this.reserving ??= this.reserve(rate)
          .catch((error) => (this.failure = error))
          .finally(() => (this.reserving = null));
      }
      const at = this.slots.shift();
      if (at !== undefined) {
        const wait = at - Date.now();
        if (wait > 0) await sleep(wait);
        return;
      }
      await this.reserving;
      if (this.failure !== null && this.slots.length === 0) {
        const failure = this.failure;
        this.failure = null;
        throw failure;
      }
    }
  }

  private blockSize(rate: number): number {
    const seconds = Math.max(0.1, (2 * this.roundTripMs) / 1000);
    return Math.max(1, Math.min(100, Math.ceil(rate * seconds)));
  }

  private async reserve(rate: number): Promise<void> {
    const started = Date.now();
    const rows = await rpc<{ granted: number; wait_ms: number }[]>('acquire_send_tokens', {
      p_wanted: this.blockSize(rate),
      p_rate: rate,
    });
    this.roundTripMs = Date.now() - started;
    const granted = rows[0]?.granted ?? 1;
    const first = Date.now() + (rows[0]?.wait_ms ?? 0);
    for (let i = 0; i < granted; i++) this.slots.push(first + (i * 1000) / rate);
  }
}

const dispenser = new SlotDispenser();

/** Waits for one send slot (at once when there is no limit). */
export async function takeSendSlot(rate: number | null): Promise<void> {
  if (rate === null) return;
  await dispenser.take(rate);
}
