// Serves the embedded PGlite over the Postgres wire protocol, so psql and SUPABASE_DB_URL work.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { PgliteDb } from './pglite.js';

export interface WireServerOptions {
  db: PgliteDb;
  port: number;
  host?: string;
  /**
   * How long a client may sit inside a transaction (or half way through an extended-protocol
   * exchange) without sending anything. It holds the only session meanwhile, so the emulator
   * ends it as Postgres's idle_in_transaction_session_timeout would.
   */
  idleInTransactionMs?: number;
  log?: (message: string) => void;
}

export interface WireServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

/** An ErrorResponse message (severity, SQLSTATE, text). */
function errorMessage(severity: string, code: string, text: string): Buffer {
  const fields = Buffer.from(`S${severity}\0V${severity}\0C${code}\0M${text}\0\0`, 'utf8');
  const header = Buffer.alloc(5);
  header.write('E', 0, 'latin1');
  header.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([header, fields]);
}

interface ScanResult {
  /** Transaction status of the last ReadyForQuery, if the output had one. */
  ready: 'I' | 'T' | 'E' | null;
  notifications: Array<{ channel: string; payload: string }>;
}

/** Reads the backend's complete reply to one message for ReadyForQuery and NOTIFY. */
function scanOutput(out: Buffer): ScanResult {
  const result: ScanResult = { ready: null, notifications: [] };
  let at = 0;
  while (at + 5 <= out.length) {
    const type = out[at];
    const length = out.readInt32BE(at + 1);
    const body = out.subarray(at + 5, at + 1 + length);
    if (type === 0x5a /* Z */) result.ready = String.fromCharCode(body[0]!) as ScanResult['ready'];
    if (type === 0x41 /* A */) {
      const end = body.indexOf(0, 4);
      result.notifications.push({
        channel: body.subarray(4, end).toString('utf8'),
        payload: body.subarray(end + 1, body.indexOf(0, end + 1)).toString('utf8'),
      });
    }
    at += 1 + length;
  }
  return result;
}

/**
 * Why not @electric-sql/pglite-socket's server: its query queue is separate from the emulator's
 * own queries, so those would run inside a wire client's open transaction, and it refuses
 * clients beyond `maxConnections` instead of queueing them. Framing here follows its handler.
 *
 * PGlite is a single session. Clients take turns with the emulator through the session lock:
 * a client holds it from its first message until the backend is idle again (ReadyForQuery 'I'),
 * so transactions never interleave; everything else queues. Session settings a client changes
 * are reset when it disconnects.
 */
export async function startWireServer(options: WireServerOptions): Promise<WireServer> {
  const { db } = options;
  const log = options.log ?? (() => undefined);
  const idleLimit = options.idleInTransactionMs ?? 10_000;
  // Each open client and the promise of its pending work, so close() can wait for the rollback.
  const sockets = new Map<Socket, () => Promise<void>>();

  const serve = (socket: Socket) => {
    socket.setNoDelay(true);
    let buffer = Buffer.alloc(0);
    let started = false;
    let closed = false;
    let release: (() => void) | null = null;
    let idleTimer: NodeJS.Timeout | null = null;
    let chain: Promise<void> = Promise.resolve();
    sockets.set(socket, () => chain);

    const clearIdle = () => {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = null;
    };
    // Gives the session back, first undoing an open transaction and the client's settings.
    const finish = async () => {
      clearIdle();
      const give = release ?? (await db.lock.acquire());
      release = null;
      try {
        if (db.pglite.isInTransaction()) await db.pglite.exec('rollback');
        // RESET ALL leaves the role alone, hence the session authorization first.
        await db.pglite.exec(
          'reset session authorization; reset all; set search_path = "$user", public, extensions',
        );
      } catch (err) {
        log(`wire: resetting the session failed: ${(err as Error).message}`);
      } finally {
        give();
      }
    };
    const end = () => {
      if (closed) return;
      closed = true;
      socket.destroy();
      chain = chain.then(finish).finally(() => sockets.delete(socket));
    };

    const handle = async (message: Buffer) => {
      if (closed) return;
      clearIdle();
      if (!release) release = await db.lock.acquire();
      if (closed) return;
      const chunks: Uint8Array[] = [];
      await db.pglite.execProtocolRawStream(new Uint8Array(message), {
        onRawData: (data) => chunks.push(data.slice()),
      });
      const out = Buffer.concat(chunks);
      if (out.length && !socket.destroyed) socket.write(out);
      const { ready, notifications } = scanOutput(out);
      for (const n of notifications) db.deliverNotification(n.channel, n.payload);
      if (ready === 'I') {
        const give = release;
        release = null;
        give();
      } else if (!closed) {
        idleTimer = setTimeout(() => {
          log('wire: closing a client idle in a transaction');
          socket.write(
            errorMessage(
              'FATAL',
              '25P03',
              'terminating connection due to idle-in-transaction timeout',
            ),
          );
          end();
        }, idleLimit);
      }
    };

    const nextMessage = (): Buffer | 'wait' | 'close' => {
      if (!started) {
        if (buffer.length < 8) return 'wait';
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) return 'wait';
        const code = buffer.readInt32BE(4);
        const message = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          socket.write('N'); // no encryption on a local socket; the client goes on in clear
          return nextMessage();
        }
        if (code === CANCEL_REQUEST) return 'close'; // PGlite cannot cancel a running query
        if (code !== PROTOCOL_3) return 'close';
        started = true;
        return message;
      }
      if (buffer.length < 5) return 'wait';
      const length = buffer.readInt32BE(1);
      if (buffer.length < 1 + length) return 'wait';
      const message = buffer.subarray(0, 1 + length);
      buffer = buffer.subarray(1 + length);
      if (message[0] === 0x58 /* X: Terminate */) return 'close';
      return message;
    };

    socket.on('data', (data) => {
      buffer = Buffer.concat([buffer, data]);
      for (;;) {
        const message = nextMessage();
        if (message === 'wait') break;
        if (message === 'close') {
          end();
          break;
        }
        chain = chain
          .then(() => handle(message))
          .catch((err: Error) => {
            log(`wire: ${err.message}`);
            end();
          });
      }
    });
    socket.on('error', () => end());
    socket.on('close', () => end());
  };

  const server: Server = createServer(serve);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(`database port ${options.port} is already in use (${host})`, { cause: err })
          : err,
      );
    server.once('error', failed);
    server.listen(options.port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `postgresql://postgres:postgres@${host}:${port}/postgres`,
    async close() {
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      const pending = [...sockets].map(([socket, work]) => (socket.destroy(), work));
      // Destroying a socket queues its cleanup on its chain; wait for all of it.
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.all(pending.map((work) => work()));
      await closing;
    },
  };
}
