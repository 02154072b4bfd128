// One WebSocket: Phoenix heartbeats, joins, leaves, token updates, broadcast and presence pushes (contract §4.2–§4.6).
import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { Db } from '../db/types.js';
import { identify, identifyChannel, type Identity } from './auth.js';
import type { ChangeFeed } from './cdc.js';
import {
  decodeBinary,
  decodeText,
  encodeText,
  FrameError,
  type PhxMessage,
  type Vsn,
} from './frames.js';
import type { Hub, Outlet, PgBinding, Subscriber } from './hub.js';
import { channelRights, readDeniedReason } from './private-channels.js';
import { handleBroadcast, handlePresence } from './pushes.js';
import { parseReplay, replayBroadcasts } from './replay.js';

export interface ConnectionDeps {
  db: Db;
  hub: Hub;
  cdc: ChangeFeed;
  log: (message: string, err?: unknown) => void;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};

/** setTimeout cannot wait longer than this; tokens living longer are not timed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class Connection implements Outlet {
  readonly id = randomUUID();
  readonly binary: boolean;
  private readonly channels = new Map<string, Subscriber>();
  private readonly expiries = new Map<Subscriber, NodeJS.Timeout>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly ws: WebSocket,
    private readonly vsn: Vsn,
    private readonly identity: Identity,
    private readonly deps: ConnectionDeps,
  ) {
    this.binary = vsn === '2.0.0';
    ws.on('message', (data, isBinary) => {
      // One message at a time, so a join finishes before the pushes that follow it.
      this.queue = this.queue
        .then(() => this.receive(data as Buffer, isBinary))
        .catch((err) => deps.log('[realtime] message handling failed', err));
    });
    ws.on('close', () => this.dropAll());
  }

  push(msg: PhxMessage): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(encodeText(msg, this.vsn));
  }

  pushBinary(bytes: Uint8Array): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(bytes, { binary: true });
  }

  private readonly reply = (msg: PhxMessage, status: 'ok' | 'error', response: unknown): void => {
    this.push({
      joinRef: msg.joinRef,
      ref: msg.ref,
      topic: msg.topic,
      event: 'phx_reply',
      payload: { status, response },
    });
  };

  private async receive(data: Buffer, isBinary: boolean): Promise<void> {
    let msg: PhxMessage;
    try {
      msg = isBinary
        ? decodeBinary(new Uint8Array(data))
        : decodeText(data.toString('utf8'), this.vsn);
    } catch (err) {
      if (!(err instanceof FrameError)) throw err;
      this.deps.log(`[realtime] dropped a malformed frame: ${err.message}`);
      return;
    }
    if (msg.topic === 'phoenix') {
      if (msg.event === 'heartbeat') this.reply(msg, 'ok', {});
      return;
    }
    if (msg.event === 'phx_join') {
      return this.join(msg).catch((err) => {
        this.deps.log('[realtime] join failed', err);
        this.reply(msg, 'error', { reason: 'Internal server error' });
      });
    }
    const sub = this.channels.get(msg.topic);
    // Phoenix answers pushes to a topic the socket has not joined with this reason.
    if (!sub) return this.reply(msg, 'error', { reason: 'unmatched topic' });
    switch (msg.event) {
      case 'phx_leave':
        this.reply(msg, 'ok', {});
        return this.close(sub);
      case 'access_token':
        return this.refreshToken(sub, obj(msg.payload).access_token);
      case 'broadcast':
        return handleBroadcast(this.deps.hub, sub, msg, this.reply);
      case 'presence':
        return handlePresence(this.deps.hub, sub, msg, this.reply);
      default:
        return this.reply(msg, 'error', { reason: `unknown event ${msg.event}` });
    }
  }

  private async join(msg: PhxMessage): Promise<void> {
    if (!msg.topic.startsWith('realtime:')) {
      return this.reply(msg, 'error', { reason: 'unmatched topic' });
    }
    const subTopic = msg.topic.slice('realtime:'.length);
    // Upstream's first join clause: `join("realtime:", …)` logs TopicNameRequired and refuses.
    if (!subTopic) {
      return this.reply(msg, 'error', {
        reason: 'TopicNameRequired: You must provide a topic name',
      });
    }
    const previous = this.channels.get(msg.topic);
    if (previous) this.drop(previous); // a rejoin replaces the old channel process
    const payload = obj(msg.payload);
    const config = obj(payload.config);
    const auth = await identifyChannel(payload.access_token, this.identity);
    if (!auth.ok) return this.reply(msg, 'error', { reason: auth.message });
    const isPrivate = config.private === true;
    let canWrite = { broadcast: true, presence: true };
    if (isPrivate) {
      const rights = await channelRights(this.deps.db, auth.identity, subTopic);
      if (!rights.read) return this.reply(msg, 'error', { reason: readDeniedReason(subTopic) });
      canWrite = rights.write;
    }
    const broadcast = obj(config.broadcast);
    const replay = parseReplay(broadcast.replay, isPrivate);
    if (typeof replay === 'string') return this.reply(msg, 'error', { reason: replay });
    const presence = obj(config.presence);
    const raw = Array.isArray(config.postgres_changes)
      ? (config.postgres_changes as unknown[])
      : [];
    const bindings: PgBinding[] = raw.map((r) => {
      const b = obj(r);
      return {
        id: nextBindingId(),
        event: String(b.event).toUpperCase() as PgBinding['event'],
        schema: String(b.schema),
        table: typeof b.table === 'string' ? b.table : undefined,
        filter: null,
        ready: false,
      };
    });
    const sub: Subscriber = {
      outlet: this,
      topic: msg.topic,
      subTopic,
      joinRef: msg.joinRef ?? msg.ref,
      private: isPrivate,
      self: broadcast.self === true,
      ack: broadcast.ack === true,
      presence: {
        enabled: presence.enabled === true,
        key: typeof presence.key === 'string' && presence.key ? presence.key : randomUUID(),
      },
      identity: auth.identity,
      bindings,
      canWrite,
    };
    const problems = bindings.length ? await this.deps.cdc.prepare(sub, raw) : [];
    // The socket may have gone while the join awaited the database: add nothing that would leak.
    if (this.ws.readyState !== this.ws.OPEN) return this.deps.cdc.release(sub);
    this.channels.set(msg.topic, sub);
    this.deps.hub.add(sub);
    this.scheduleExpiry(sub);
    // The reply echoes each binding as asked, plus its id, in order (contract §4.2).
    const echoed = raw.map((r, i) => {
      const b = obj(r);
      return {
        event: b.event,
        schema: b.schema,
        table: b.table,
        filter: b.filter,
        ...(b.select !== undefined ? { select: b.select } : {}),
        id: bindings[i]!.id,
      };
    });
    this.reply(msg, 'ok', { postgres_changes: echoed });
    if (sub.presence.enabled) {
      this.push({
        joinRef: sub.joinRef,
        ref: null,
        topic: sub.topic,
        event: 'presence_state',
        payload: this.deps.hub.presenceState(sub.topic, sub.private),
      });
    }
    if (bindings.length) this.deps.cdc.announce(sub, problems);
    // Upstream's notify_replication_ready; database broadcasts flow from the start here. Any
    // value but null/false opts in, as Elixir's `!!` reads it.
    const ready = broadcast.replication_ready;
    if (ready !== undefined && ready !== null && ready !== false) {
      this.push({
        joinRef: sub.joinRef,
        ref: null,
        topic: sub.topic,
        event: 'system',
        payload: {
          extension: 'system',
          status: 'ok',
          message: 'Replication connection established',
          channel: subTopic,
        },
      });
    }
    if (replay) {
      await replayBroadcasts(this.deps.db, sub, replay).catch((err) =>
        this.deps.log('[realtime] replay failed', err),
      );
    }
  }

  private async refreshToken(sub: Subscriber, token: unknown): Promise<void> {
    const auth =
      typeof token === 'string' && token && !token.startsWith('sb_')
        ? await identify(token)
        : { ok: true as const, identity: this.identity };
    if (!auth.ok) return this.revoke(sub, auth.message);
    if (sub.private) {
      const rights = await channelRights(this.deps.db, auth.identity, sub.subTopic);
      if (!rights.read) return this.revoke(sub, readDeniedReason(sub.subTopic));
      sub.canWrite = rights.write;
    }
    sub.identity = auth.identity;
    this.scheduleExpiry(sub);
  }

  /** Upstream tells the client why with a `system` error, then shuts the channel. */
  private revoke(sub: Subscriber, message: string): void {
    this.push({
      joinRef: sub.joinRef,
      ref: null,
      topic: sub.topic,
      event: 'system',
      payload: { message, status: 'error', extension: 'system', channel: sub.subTopic },
    });
    this.close(sub);
  }

  private scheduleExpiry(sub: Subscriber): void {
    clearTimeout(this.expiries.get(sub));
    this.expiries.delete(sub);
    const exp = sub.identity.claims.exp;
    if (typeof exp !== 'number') return;
    const ms = exp * 1000 - Date.now();
    if (ms > MAX_TIMER_MS) return;
    const timer = setTimeout(
      () => this.revoke(sub, 'Token has expired 0 seconds ago'),
      Math.max(0, ms),
    );
    timer.unref();
    this.expiries.set(sub, timer);
  }

  /** Server-side close of one channel: `phx_close`, then forget it. */
  private close(sub: Subscriber): void {
    this.push({
      joinRef: sub.joinRef,
      ref: sub.joinRef,
      topic: sub.topic,
      event: 'phx_close',
      payload: {},
    });
    this.drop(sub);
  }

  private drop(sub: Subscriber): void {
    clearTimeout(this.expiries.get(sub));
    this.expiries.delete(sub);
    if (this.channels.get(sub.topic) === sub) this.channels.delete(sub.topic);
    this.deps.hub.remove(sub);
    this.deps.cdc.release(sub);
  }

  /** Socket gone: every channel leaves, so presences leave too (contract §4.5). */
  private dropAll(): void {
    for (const sub of [...this.channels.values()]) this.drop(sub);
  }

  terminate(): void {
    this.dropAll();
    this.ws.terminate();
  }
}

let bindingSeq = 0;
/** Binding ids are integers upstream (a hash of the subscription); unique per process here. */
const nextBindingId = () => 10_000_000 + ++bindingSeq;
