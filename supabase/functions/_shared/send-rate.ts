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
 * together keep the rate. Slots are reserved in blocks of about a tenth of a second of the rate
 * (one at 10/s, 20 at 200/s), one block at a time: a round trip per message would make that one row
 * the limit of a fast rate, and a block is small enough that slots a finishing run leaves unused
 * cost the rate little.
 */
class SlotDispenser {
  /** Reserved slots (epoch ms), earliest first. */
  private slots: number[] = [];
  private reserving: Promise<void> | null = null;

  async take(rate: number): Promise<void> {
    for (;;) {
      const at = this.slots.shift();
      if (at !== undefined) {
        const wait = at - Date.now();
        if (wait > 0) await sleep(wait);
        return;
      }
      this.reserving ??= this.reserve(rate).finally(() => (this.reserving = null));
      await this.reserving;
    }
  }

  private async reserve(rate: number): Promise<void> {
    const rows = await rpc<{ granted: number; wait_ms: number }[]>('acquire_send_tokens', {
      p_wanted: Math.max(1, Math.min(100, Math.ceil(rate / 10))),
      p_rate: rate,
    });
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
