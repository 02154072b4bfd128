// Private channel authorization: RLS on realtime.messages evaluated as the caller (contract §4.6).
import type { Db } from '../db/types.js';
import type { Identity } from './auth.js';
import { asCaller, succeeds } from './caller.js';
import { SQL } from './sql.js';

export interface ChannelRights {
  read: boolean;
  write: { broadcast: boolean; presence: boolean };
}

/**
 * As upstream realtime's Authorization module: insert probe rows for the topic (one per
 * extension), then as the caller SELECT them (read) and INSERT new ones (write); roll back.
 */
export async function channelRights(
  db: Db,
  identity: Identity,
  subTopic: string,
): Promise<ChannelRights> {
  let probeIds: string[] = [];
  return asCaller(
    db,
    identity,
    subTopic,
    async (tx) => {
      const { rows } = await tx.query<{ extension: string }>(SQL['probe-read'], [probeIds]);
      const readable = new Set(rows.map((r) => r.extension));
      return {
        read: readable.size > 0,
        write: {
          broadcast: await succeeds(tx, SQL['probe-write'], [subTopic, 'broadcast']),
          presence: await succeeds(tx, SQL['probe-write'], [subTopic, 'presence']),
        },
      };
    },
    async (tx) => {
      const { rows } = await tx.query<{ id: string }>(SQL['probe-messages'], [subTopic]);
      probeIds = rows.map((r) => r.id);
    },
  );
}

export const readDeniedReason = (subTopic: string) =>
  `Unauthorized: You do not have permissions to read from this Channel topic: ${subTopic}`;
