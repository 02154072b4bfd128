// The gateway's answer while the emulator is still starting: 503 with Retry-After, never silence.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;
type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** Seconds a client is asked to wait before trying again. */
const RETRY_AFTER = '1';
const BODY = JSON.stringify({
  message: 'The local Supabase API is starting; retry shortly.',
});

export interface Starting {
  /** From now on requests and WebSocket upgrades go to these listeners. */
  ready(onRequest: RequestListener, onUpgrade: UpgradeListener): void;
}

/**
 * The gateway listens before its services exist (they need its URL, and port 0 is only known
 * once listening). A request with no listener attached would be accepted and never answered, so
 * until `ready` every request — /health included — gets 503 Service Unavailable with
 * Retry-After, as a gateway answers while its upstreams come up: a client that polls /health
 * (the CLI's own readiness wait, a test harness) sees 503 then 200, and supabase-js retries
 * its requests. The body is a Kong-style `{message}`, as for the gateway's other own errors.
 */
export function answerWhileStarting(server: Server): Starting {
  let onRequest: RequestListener | null = null;
  let onUpgrade: UpgradeListener | null = null;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (onRequest) return onRequest(req, res);
    req.resume(); // a body is not read; draining it lets the connection be reused
    res.writeHead(503, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(BODY)),
      'retry-after': RETRY_AFTER,
      'access-control-allow-origin': '*',
    });
    res.end(req.method === 'HEAD' ? undefined : BODY);
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (onUpgrade) return onUpgrade(req, socket, head);
    socket.end(
      `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(BODY)}\r\nretry-after: ${RETRY_AFTER}\r\n` +
        `connection: close\r\n\r\n${BODY}`,
    );
  });
  return {
    ready(request, upgrade) {
      onRequest = request;
      onUpgrade = upgrade;
    },
  };
}
