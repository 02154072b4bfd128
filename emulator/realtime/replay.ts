// Broadcast replay on private channels: stored broadcasts since a time, sent after the join (contract §4.6).
import type { Db } from '../db/types.js';
import { encodeUserBroadcast } from './frames.js';
import type { Subscriber } from './hub.js';
import { SQL } from './sql.js';

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export interface Replay {
  since: number;
  limit: number;
}

/** Upstream caps replay at 25 messages (supabase.com/features/realtime-broadcast-replay). */
const MAX_REPLAY = 25;

/** `config.broadcast.replay` → what to replay, nothing, or the reason the join is refused. */
export function parseReplay(value: unknown, isPrivate: boolean): Replay | null | string {
  if (value === undefined || value === null) return null;
  if (!isPrivate) return 'Broadcast replay is only available on private channels';
  const { since, limit } = obj(value);
  if (typeof since !== 'number' || !Number.isFinite(since) || since < 0) {
    return 'Broadcast replay needs `since` as epoch milliseconds';
  }
  if (
    limit !== undefined &&
    (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_REPLAY)
  ) {
    return `Broadcast replay \`limit\` must be an integer from 1 to ${MAX_REPLAY}`;
  }
  return { since, limit: (limit as number | undefined) ?? MAX_REPLAY };
}

/** Stored broadcasts since `since`, oldest first, marked `meta.replayed` (upstream broadcast replay). */
export async function replayBroadcasts(db: Db, sub: Subscriber, { since, limit }: Replay) {
  const { rows } = await db.query<{
    id: string;
    event: string;
    payload: unknown;
    binary_payload: string | null;
  }>(SQL['replay-messages'], [sub.subTopic, since, limit]);
  for (const row of rows) {
    if (row.binary_payload !== null) {
      // Upstream replays send_binary rows as binary broadcasts, and skips them on JSON sockets.
      if (sub.outlet.binary) {
        const bytes = new Uint8Array(Buffer.from(row.binary_payload, 'base64'));
        const meta = { replayed: true, id: row.id };
        sub.outlet.pushBinary(encodeUserBroadcast(sub.topic, row.event, bytes, meta));
      }
      continue;
    }
    sub.outlet.push({
      joinRef: null,
      ref: null,
      topic: sub.topic,
      event: 'broadcast',
      payload: {
        type: 'broadcast',
        event: row.event,
        payload: row.payload,
        meta: { replayed: true, id: row.id },
      },
    });
  }
}
