// Who is joined to which topic: broadcast fan-out and presence state per topic (contract §4.4, §4.5).
import { randomUUID } from 'node:crypto';
import type { Identity } from './auth.js';
import type { ChangeFilter } from './filters.js';
import { encodeUserBroadcast, type PhxMessage, type UserBroadcast } from './frames.js';

/** The socket side a subscriber writes to (implemented by connection.ts). */
export interface Outlet {
  readonly id: string;
  readonly binary: boolean;
  push(msg: PhxMessage): void;
  pushBinary(bytes: Uint8Array): void;
}

/** One postgres_changes binding of a join, with the id echoed in the join reply. */
export interface PgBinding {
  id: number;
  event: '*' | 'INSERT' | 'UPDATE' | 'DELETE';
  schema: string;
  /** Undefined or '*' means every table of the schema. */
  table?: string;
  filter: ChangeFilter | null;
  /** Column selection (`select`), checked against the catalogue. */
  select?: string[];
  /** Set once the binding was checked against the catalogue (cdc.ts subscribe). */
  ready: boolean;
}

export interface Subscriber {
  outlet: Outlet;
  /** Wire topic, e.g. `realtime:room1`. */
  topic: string;
  /** The name after `realtime:`, what policies see through realtime.topic(). */
  subTopic: string;
  joinRef: string | null;
  private: boolean;
  self: boolean;
  ack: boolean;
  presence: { enabled: boolean; key: string };
  identity: Identity;
  bindings: PgBinding[];
  /** Private channels: what the caller's realtime.messages INSERT policy allows. */
  canWrite: { broadcast: boolean; presence: boolean };
}

interface Presence {
  key: string;
  meta: Record<string, unknown>;
}

/** Public and private channels of the same name are separate topics upstream. */
const topicKey = (topic: string, isPrivate: boolean) =>
  `${isPrivate ? 'private' : 'public'}|${topic}`;

/** Presence refs are opaque strings to the client (Phoenix.Tracker uses base64 refs). */
const newPresenceRef = () => randomUUID().replace(/-/g, '').slice(0, 20);

type PresenceMap = Record<string, { metas: Record<string, unknown>[] }>;

export class Hub {
  private readonly topics = new Map<string, Set<Subscriber>>();
  private readonly presences = new Map<string, Map<Subscriber, Presence>>();

  add(sub: Subscriber): void {
    const key = topicKey(sub.topic, sub.private);
    let set = this.topics.get(key);
    if (!set) this.topics.set(key, (set = new Set()));
    set.add(sub);
  }

  /** Removes a subscriber; its presence leaves as a diff to those still there. */
  remove(sub: Subscriber): void {
    const key = topicKey(sub.topic, sub.private);
    const set = this.topics.get(key);
    set?.delete(sub);
    if (set?.size === 0) this.topics.delete(key);
    this.untrack(sub);
  }

  *all(): Iterable<Subscriber> {
    for (const set of this.topics.values()) yield* set;
  }

  subscribers(topic: string, isPrivate: boolean): Subscriber[] {
    return [...(this.topics.get(topicKey(topic, isPrivate)) ?? [])];
  }

  /**
   * Sends a broadcast to the topic's subscribers; `sender` is skipped unless it joined with
   * `broadcast.self`. Raw-byte payloads go out as kind-4 binary frames to vsn 2.0.0 sockets.
   */
  broadcast(topic: string, isPrivate: boolean, message: UserBroadcast, sender?: Subscriber): void {
    for (const sub of this.subscribers(topic, isPrivate)) {
      if (sub === sender && !sub.self) continue;
      if (message.payload instanceof Uint8Array) {
        if (!sub.outlet.binary) continue; // vsn 1.0.0 has no way to carry raw bytes
        sub.outlet.pushBinary(
          encodeUserBroadcast(topic, message.event, message.payload, message.meta),
        );
      } else {
        sub.outlet.push({ joinRef: null, ref: null, topic, event: 'broadcast', payload: message });
      }
    }
  }

  /** Current presence of a topic grouped by key, as Phoenix.Presence.list/1 renders it. */
  presenceState(topic: string, isPrivate: boolean): PresenceMap {
    const state: PresenceMap = {};
    for (const p of this.presences.get(topicKey(topic, isPrivate))?.values() ?? []) {
      (state[p.key] ??= { metas: [] }).metas.push(p.meta);
    }
    return state;
  }

  /** Tracks (or re-tracks, replacing the previous meta) the subscriber's presence. */
  track(sub: Subscriber, payload: Record<string, unknown>): void {
    const key = topicKey(sub.topic, sub.private);
    let map = this.presences.get(key);
    if (!map) this.presences.set(key, (map = new Map()));
    const previous = map.get(sub);
    const meta: Record<string, unknown> = { ...payload, phx_ref: newPresenceRef() };
    if (previous) meta.phx_ref_prev = previous.meta.phx_ref;
    map.set(sub, { key: sub.presence.key, meta });
    const leaves: PresenceMap = previous ? { [previous.key]: { metas: [previous.meta] } } : {};
    this.presenceDiff(sub, { [sub.presence.key]: { metas: [meta] } }, leaves);
  }

  untrack(sub: Subscriber): void {
    const key = topicKey(sub.topic, sub.private);
    const map = this.presences.get(key);
    const previous = map?.get(sub);
    if (!map || !previous) return;
    map.delete(sub);
    if (map.size === 0) this.presences.delete(key);
    this.presenceDiff(sub, {}, { [previous.key]: { metas: [previous.meta] } });
  }

  /** Everyone on the topic with presence enabled hears the diff, the tracker included. */
  private presenceDiff(origin: Subscriber, joins: PresenceMap, leaves: PresenceMap): void {
    for (const sub of this.subscribers(origin.topic, origin.private)) {
      if (!sub.presence.enabled) continue;
      sub.outlet.push({
        joinRef: sub.joinRef,
        ref: null,
        topic: sub.topic,
        event: 'presence_diff',
        payload: { joins, leaves },
      });
    }
  }
}
