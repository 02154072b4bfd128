// createRealtimeService(): the /realtime/v1 service — WebSocket upgrades, REST broadcast, change feed and database broadcasts.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { ProjectConfig } from '../config.js';
import type { Db } from '../db/types.js';
import type { GatewayContext, Service } from '../gateway/types.js';
import type { EmulatorKeys } from '../keys.js';
import { identifyApikey } from './auth.js';
import { ChangeFeed } from './cdc.js';
import { Connection } from './connection.js';
import { DbBroadcasts } from './db-broadcast.js';
import type { Vsn } from './frames.js';
import { createBroadcastApi } from './http.js';
import { Hub } from './hub.js';

export interface RealtimeServiceOptions {
  db: Db;
  config: ProjectConfig;
  keys: EmulatorKeys;
  url: string;
  log?: (message: string, err?: unknown) => void;
}

export interface RealtimeService extends Service {
  /** Node `upgrade` listener for `/realtime/v1/websocket`. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

const SOCKET_PATH = '/realtime/v1/websocket';
const VERSIONS: readonly Vsn[] = ['1.0.0', '2.0.0'];

function refuse(socket: Duplex, status: number, reason: string, message: string) {
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function createRealtimeService(options: RealtimeServiceOptions): RealtimeService {
  const { db, keys } = options;
  const log =
    options.log ?? ((message: string, err?: unknown) => console.error(message, err ?? ''));
  const hub = new Hub();
  const cdc = new ChangeFeed(db, hub, log);
  const dbBroadcasts = new DbBroadcasts(db, hub, log);
  const wss = new WebSocketServer({ noServer: true });
  const connections = new Set<Connection>();
  const api = createBroadcastApi(db, hub);
  const ready = (async () => {
    await cdc.start();
    await dbBroadcasts.start();
  })();
  ready.catch((err) => log('[realtime] failed to start', err));
  // realtime.messages comes from the platform bootstrap; keep looking until it is watched.
  const watchTimer = setInterval(() => {
    dbBroadcasts
      .watch()
      .then((live) => live && clearInterval(watchTimer))
      .catch(() => undefined);
  }, 2000);
  watchTimer.unref();

  async function accept(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== SOCKET_PATH && url.pathname !== SOCKET_PATH + '/') {
      return refuse(socket, 404, 'Not Found', 'no Route matched with those values');
    }
    const vsn = (url.searchParams.get('vsn') ?? '1.0.0') as Vsn;
    if (!VERSIONS.includes(vsn)) {
      return refuse(socket, 400, 'Bad Request', `unsupported vsn ${vsn}`);
    }
    // Kong's mapping (contract §0.3) applied to the apikey query parameter.
    const auth = await identifyApikey(url.searchParams.get('apikey'), keys);
    if (!auth.ok) return refuse(socket, 403, 'Forbidden', auth.message);
    await ready;
    wss.handleUpgrade(req, socket, head, (ws) => {
      const conn = new Connection(ws, vsn, auth.identity, { db, hub, cdc, log });
      connections.add(conn);
      ws.on('close', () => connections.delete(conn));
    });
  }

  return {
    async handle(req: Request, _ctx: GatewayContext): Promise<Response> {
      await ready;
      return api(req);
    },
    upgrade(req, socket, head) {
      accept(req, socket, head).catch((err) => {
        log('[realtime] upgrade failed', err);
        refuse(socket, 500, 'Internal Server Error', 'Internal server error');
      });
    },
    async close() {
      clearInterval(watchTimer);
      for (const conn of connections) conn.terminate();
      wss.close();
      await ready.catch(() => undefined);
      await cdc.stop();
      await dbBroadcasts.stop();
    },
  };
}
