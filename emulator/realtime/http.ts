// Realtime's REST side: POST /api/broadcast (batch) and /api/broadcast/{topic}/events/{event} (httpSend), contract §4.4.
import type { Db } from '../db/types.js';
import { bearerToken } from '../gateway/credentials.js';
import { identify, type Identity } from './auth.js';
import type { Hub } from './hub.js';
import { channelRights } from './private-channels.js';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
/** Upstream answers accepted broadcasts with an empty 202. */
const accepted = () => new Response(null, { status: 202 });

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface Outgoing {
  topic: string;
  event: string;
  payload: unknown;
  private: boolean;
}

export function createBroadcastApi(db: Db, hub: Hub) {
  /** Private topics need the caller's INSERT policy on realtime.messages (service_role bypasses it). */
  async function send(identity: Identity, messages: Outgoing[]) {
    const allowed = new Map<string, boolean>();
    for (const m of messages) {
      if (m.private) {
        if (!allowed.has(m.topic)) {
          const rights = await channelRights(db, identity, m.topic);
          allowed.set(m.topic, rights.write.broadcast);
        }
        if (!allowed.get(m.topic)) continue; // upstream skips messages the policy refuses
      }
      hub.broadcast(`realtime:${m.topic}`, m.private, {
        type: 'broadcast',
        event: m.event,
        payload: m.payload,
      });
    }
  }

  async function batch(req: Request, identity: Identity): Promise<Response> {
    let body: unknown;
    try {
      body = await req.json();
    } catch {
      throw new HttpError(400, 'Body must be JSON');
    }
    const list = (body as { messages?: unknown } | null)?.messages;
    if (!Array.isArray(list)) throw new HttpError(422, 'messages must be a list');
    const messages: Outgoing[] = list.map((m: unknown, i) => {
      const o = (m ?? {}) as Record<string, unknown>;
      if (typeof o.topic !== 'string' || typeof o.event !== 'string') {
        throw new HttpError(422, `messages[${i}] needs a topic and an event`);
      }
      return {
        topic: o.topic,
        event: o.event,
        payload: o.payload ?? {},
        private: o.private === true,
      };
    });
    await send(identity, messages);
    return accepted();
  }

  async function single(req: Request, identity: Identity, topic: string, event: string) {
    const url = new URL(req.url);
    if ([...url.searchParams.keys()].some((k) => k.startsWith('persist'))) {
      throw new HttpError(
        501,
        'Persisted broadcasts (persist) are not implemented by the emulator',
      );
    }
    const isBinary = (req.headers.get('content-type') ?? '').startsWith('application/octet-stream');
    let payload: unknown;
    if (isBinary) payload = new Uint8Array(await req.arrayBuffer());
    else {
      try {
        payload = await req.json();
      } catch {
        throw new HttpError(400, 'Body must be JSON');
      }
    }
    await send(identity, [
      { topic, event, payload, private: url.searchParams.get('private') === 'true' },
    ]);
    return accepted();
  }

  return async function handle(req: Request): Promise<Response> {
    try {
      const path = new URL(req.url).pathname.replace(/^\/realtime\/v1/, '');
      const one = path.match(/^\/api\/broadcast\/([^/]+)\/events\/([^/]+)$/);
      if (path !== '/api/broadcast' && !one) throw new HttpError(404, 'Not Found');
      if (req.method !== 'POST') throw new HttpError(405, 'Method Not Allowed');
      const token = bearerToken(req.headers.get('authorization'));
      const auth = token ? await identify(token) : { ok: false as const, message: 'Unauthorized' };
      if (!auth.ok) throw new HttpError(401, auth.message);
      if (one) {
        return await single(
          req,
          auth.identity,
          decodeURIComponent(one[1]!),
          decodeURIComponent(one[2]!),
        );
      }
      return await batch(req, auth.identity);
    } catch (err) {
      if (err instanceof HttpError) return json(err.status, { message: err.message });
      throw err; // the gateway logs it and answers a generic 500
    }
  };
}
