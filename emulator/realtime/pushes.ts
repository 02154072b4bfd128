// What a joined client pushes on its channel: broadcast sends and presence track/untrack (contract §4.4, §4.5).
import type { PhxMessage } from './frames.js';
import type { Hub, Subscriber } from './hub.js';

export type Reply = (msg: PhxMessage, status: 'ok' | 'error', response: unknown) => void;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};

/** A broadcast push (binary kind 3 or text): fan out, then reply only when the join asked for ack. */
export function handleBroadcast(hub: Hub, sub: Subscriber, msg: PhxMessage, reply: Reply): void {
  const p = obj(msg.payload);
  if (typeof p.event !== 'string') {
    return reply(msg, 'error', { reason: 'broadcast needs an event' });
  }
  if (obj(p.meta).persist !== undefined) {
    if (sub.ack) {
      reply(msg, 'error', { reason: 'persisted broadcasts are not implemented by the emulator' });
    }
    return;
  }
  if (sub.private && !sub.canWrite.broadcast) {
    // Upstream drops sends the INSERT policy does not allow; with ack the client hears why.
    if (sub.ack) {
      reply(msg, 'error', {
        reason: `Unauthorized: You do not have permissions to write to this Channel topic: ${sub.subTopic}`,
      });
    }
    return;
  }
  hub.broadcast(
    sub.topic,
    sub.private,
    { type: 'broadcast', event: p.event, payload: p.payload },
    sub,
  );
  if (sub.ack) reply(msg, 'ok', {});
}

/** `{type:"presence", event:"track"|"untrack", payload}` → diff to the topic, reply ok. */
export function handlePresence(hub: Hub, sub: Subscriber, msg: PhxMessage, reply: Reply): void {
  const p = obj(msg.payload);
  if (sub.private && !sub.canWrite.presence) {
    return reply(msg, 'error', {
      reason: `Unauthorized: You do not have permissions to track presence on this Channel topic: ${sub.subTopic}`,
    });
  }
  if (p.event === 'track') hub.track(sub, obj(p.payload));
  else if (p.event === 'untrack') hub.untrack(sub);
  else return reply(msg, 'error', { reason: `unknown presence event ${String(p.event)}` });
  reply(msg, 'ok', {});
}
