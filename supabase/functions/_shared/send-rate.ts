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
 * Waits for one send slot: acquire_send_tokens reserves the next free slot at `rate` per second in
 * the shared row and answers how long until it comes, so N workers together keep the rate.
 */
export async function takeSendSlot(rate: number | null): Promise<void> {
  if (rate === null) return;
  const rows = await rpc<{ granted: number; wait_ms: number }[]>('acquire_send_tokens', {
    p_wanted: 1,
    p_rate: rate,
  });
  const wait = rows[0]?.wait_ms ?? 0;
  if (wait > 0) await sleep(wait);
}
