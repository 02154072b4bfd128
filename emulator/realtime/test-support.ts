// Shared helpers for the realtime integration tests: an emulator per file, raw Phoenix sockets and supabase-js clients.
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { startEmulator, type RunningEmulator } from '../index.js';

export function startTestEmulator(): Promise<RunningEmulator> {
  return startEmulator({ memory: true, port: 0, dbPort: null, mailWebPort: 0, mailSmtpPort: 0 });
}

/** The unchanged supabase-js client (its realtime uses Node 22's global WebSocket). */
export function client(emu: RunningEmulator, key: string): SupabaseClient {
  return createClient(emu.url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
}

/** Resolves once the channel reports SUBSCRIBED; rejects on any other status. */
export function subscribed(channel: RealtimeChannel): Promise<RealtimeChannel> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === 'SUBSCRIBED') resolve(channel);
      else reject(new Error(`channel ${status}${err ? `: ${err.message}` : ''}`));
    });
  });
}

/** Collects values pushed by callbacks and lets a test await the next ones. */
export class Inbox<T> {
  readonly items: T[] = [];
  private waiters: Array<() => void> = [];

  push = (item: T) => {
    this.items.push(item);
    for (const w of this.waiters.splice(0)) w();
  };

  /** Waits until `predicate` holds for some item and returns it. */
  async next(predicate: (item: T) => boolean = () => true, timeoutMs = 5000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.items.find(predicate);
      if (found !== undefined) {
        this.items.splice(this.items.indexOf(found), 1);
        return found;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; inbox holds ${JSON.stringify(this.items)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Waits until at least n items arrived (they stay in the inbox). */
  async count(n: number, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.items.length < n) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${n} items`);
      await sleep(20);
    }
  }

  /** Asserts that nothing matching arrives within `ms`. */
  async none(predicate: (item: T) => boolean = () => true, ms = 700): Promise<void> {
    await new Promise((r) => setTimeout(r, ms));
    const found = this.items.find(predicate);
    if (found !== undefined) throw new Error(`unexpected ${JSON.stringify(found)}`);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A raw WebSocket speaking Phoenix frames, for protocol-level checks. */
export class RawSocket {
  readonly inbox = new Inbox<unknown>();
  readonly ws: WebSocket;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data, isBinary) => {
      this.inbox.push(isBinary ? new Uint8Array(data as Buffer) : JSON.parse(String(data)));
    });
  }

  static open(emu: RunningEmulator, query: string): Promise<RawSocket> {
    const url = `${emu.url.replace('http', 'ws')}/realtime/v1/websocket?${query}`;
    const ws = new WebSocket(url);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new RawSocket(ws)));
      ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`upgrade refused: ${res.statusCode}`)),
      );
      ws.once('error', reject);
    });
  }

  send(frame: unknown): void {
    this.ws.send(
      typeof frame === 'string' || frame instanceof Uint8Array ? frame : JSON.stringify(frame),
    );
  }

  close(): void {
    this.ws.close();
  }
}
