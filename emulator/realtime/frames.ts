// Phoenix channel framing: vsn 2.0.0 array frames, vsn 1.0.0 object frames and the binary broadcast kinds (contract §4.1).

export type Vsn = '1.0.0' | '2.0.0';

/** One Phoenix message, whatever frame it came in or goes out as. */
export interface PhxMessage {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

/** A broadcast payload as the client's serializer describes it: JSON or raw bytes. */
export interface UserBroadcast {
  type: 'broadcast';
  event: string;
  payload: unknown;
  meta?: unknown;
}

export class FrameError extends Error {}

/** Binary frame kinds of realtime-js's serializer (lib/serializer.js `KINDS`). */
const KIND_USER_BROADCAST_PUSH = 3;
const KIND_USER_BROADCAST = 4;
const ENCODING_BINARY = 0;
const ENCODING_JSON = 1;

const asRef = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

/** Parses a text frame; vsn 2.0.0 sends `[join_ref, ref, topic, event, payload]`, 1.0.0 an object. */
export function decodeText(text: string, vsn: Vsn): PhxMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new FrameError('frame is not JSON');
  }
  if (vsn === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length !== 5) {
      throw new FrameError('vsn 2.0.0 frames are [join_ref, ref, topic, event, payload]');
    }
    const [joinRef, ref, topic, event, payload] = parsed as unknown[];
    if (typeof topic !== 'string' || typeof event !== 'string') {
      throw new FrameError('topic and event must be strings');
    }
    return { joinRef: asRef(joinRef), ref: asRef(ref), topic, event, payload };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new FrameError('vsn 1.0.0 frames are {topic, event, payload, ref}');
  }
  const o = parsed as Record<string, unknown>;
  if (typeof o.topic !== 'string' || typeof o.event !== 'string') {
    throw new FrameError('topic and event must be strings');
  }
  return {
    joinRef: asRef(o.join_ref),
    ref: asRef(o.ref),
    topic: o.topic,
    event: o.event,
    payload: o.payload,
  };
}

export function encodeText(msg: PhxMessage, vsn: Vsn): string {
  if (vsn === '2.0.0') {
    return JSON.stringify([msg.joinRef, msg.ref, msg.topic, msg.event, msg.payload]);
  }
  return JSON.stringify({
    topic: msg.topic,
    event: msg.event,
    payload: msg.payload,
    ref: msg.ref,
    join_ref: msg.joinRef,
  });
}

/**
 * Decodes a binary *user broadcast push* (kind 3): u8 lengths of join_ref, ref, topic, event and
 * metadata, a u8 payload encoding, those strings, then the payload bytes.
 * The result looks like the text-frame broadcast push `{type, event, payload, meta?}`.
 */
export function decodeBinary(buf: Uint8Array): PhxMessage {
  if (buf.length < 7) throw new FrameError('binary frame too short');
  const kind = buf[0];
  if (kind !== KIND_USER_BROADCAST_PUSH) {
    throw new FrameError(`unsupported binary frame kind ${String(kind)}`);
  }
  const lengths = [buf[1]!, buf[2]!, buf[3]!, buf[4]!, buf[5]!];
  const encoding = buf[6]!;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let offset = 7;
  const strings: string[] = [];
  for (const len of lengths) {
    if (offset + len > buf.length) throw new FrameError('binary frame truncated');
    strings.push(decoder.decode(buf.subarray(offset, offset + len)));
    offset += len;
  }
  const [joinRef, ref, topic, event, metadata] = strings as [
    string,
    string,
    string,
    string,
    string,
  ];
  const body = buf.subarray(offset);
  let payload: unknown;
  if (encoding === ENCODING_JSON) {
    try {
      payload = JSON.parse(decoder.decode(body));
    } catch {
      throw new FrameError('binary frame payload is not JSON');
    }
  } else if (encoding === ENCODING_BINARY) {
    payload = new Uint8Array(body);
  } else {
    throw new FrameError(`unknown payload encoding ${encoding}`);
  }
  const broadcast: UserBroadcast = { type: 'broadcast', event, payload };
  if (metadata) {
    try {
      broadcast.meta = JSON.parse(metadata);
    } catch {
      throw new FrameError('binary frame metadata is not JSON');
    }
  }
  return {
    joinRef: joinRef || null,
    ref: ref || null,
    topic,
    event: 'broadcast',
    payload: broadcast,
  };
}

/** Encodes a kind-4 *user broadcast* for a raw-bytes payload (realtime-js `_decodeUserBroadcast`). */
export function encodeUserBroadcast(
  topic: string,
  event: string,
  payload: Uint8Array,
  meta?: unknown,
): Uint8Array {
  const encoder = new TextEncoder();
  const t = encoder.encode(topic);
  const e = encoder.encode(event);
  const m = encoder.encode(meta === undefined ? '' : JSON.stringify(meta));
  if (t.length > 255 || e.length > 255 || m.length > 255) {
    throw new FrameError('topic, event and metadata must each fit in 255 bytes');
  }
  const out = new Uint8Array(5 + t.length + e.length + m.length + payload.length);
  out.set([KIND_USER_BROADCAST, t.length, e.length, m.length, ENCODING_BINARY], 0);
  let offset = 5;
  for (const part of [t, e, m, payload]) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
