// Broadcasts that come from SQL: rows inserted into realtime.messages (realtime.send, send_binary, broadcast_changes) reach subscribers (contract §4.4, §6.6).
import type { Db } from '../db/types.js';
import type { Hub } from './hub.js';
import { SQL } from './sql.js';

interface MessageRow {
  id: string;
  topic: string;
  event: string | null;
  extension: string;
  private: boolean;
  payload: unknown;
  /** realtime.send_binary's bytes, base64. */
  binary_payload: string | null;
}

export class DbBroadcasts {
  private unlisten: (() => Promise<void>) | null = null;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly hub: Hub,
    private readonly log: (message: string, err?: unknown) => void,
  ) {}

  async start(): Promise<void> {
    this.unlisten = await this.db.listen('_realtime_message', (payload) => {
      this.queue = this.queue
        .then(() => this.handle(payload))
        .catch((err) => this.log('[realtime] database broadcast failed', err));
    });
    await this.watch();
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    await this.queue;
  }

  /**
   * Puts the notify trigger on realtime.messages once the table exists (it comes from the
   * platform bootstrap). Returns whether database broadcasts are live.
   */
  async watch(): Promise<boolean> {
    const { rows } = await this.db.query<{ present: boolean; watched: boolean }>(
      SQL['messages-table'],
    );
    const state = rows[0];
    if (!state?.present) return false;
    if (!state.watched) {
      await this.db.exec(
        'create or replace trigger _realtime_message after insert on realtime.messages for each row execute function _realtime.message_inserted()',
      );
    }
    return true;
  }

  private async handle(payload: string): Promise<void> {
    let row = JSON.parse(payload) as MessageRow | { ref: string };
    if ('ref' in row) {
      const { rows } = await this.db.query<MessageRow>(SQL['get-message'], [row.ref]);
      if (!rows[0]) return;
      row = rows[0];
    }
    if (row.extension !== 'broadcast' || !row.event) return;
    if (row.binary_payload !== null && row.binary_payload !== undefined) {
      // Upstream's replication connection sends binary_payload as a binary user broadcast
      // (encoding :binary) with the message id as metadata; JSON sockets cannot carry it.
      this.hub.broadcast(`realtime:${row.topic}`, row.private, {
        type: 'broadcast',
        event: row.event,
        payload: new Uint8Array(Buffer.from(row.binary_payload, 'base64')),
        meta: { id: row.id },
      });
      return;
    }
    // Upstream adds the message id to an object payload and as meta.id (contract §4.4).
    const body =
      row.payload && typeof row.payload === 'object' && !Array.isArray(row.payload)
        ? { ...(row.payload as Record<string, unknown>), id: row.id }
        : row.payload;
    this.hub.broadcast(`realtime:${row.topic}`, row.private, {
      type: 'broadcast',
      event: row.event,
      payload: body,
      meta: { id: row.id },
    });
  }
}
