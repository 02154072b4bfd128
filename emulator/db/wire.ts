// Serves the embedded PGlite over the Postgres wire protocol, so psql and SUPABASE_DB_URL work.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { PgliteDb } from './pglite.js';
import {
  commandComplete,
  errorMessage,
  readyForQuery,
  refusal,
  scanOutput,
  statementText,
} from './wire-messages.js';
import { ConnectionStatements, SYNC } from './wire-statements.js';

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
  // Each open client's `end`, which resolves once its session is rolled back and reset.
  const sockets = new Map<Socket, () => Promise<void>>();
  let connections = 0;

  const serve = (socket: Socket) => {
    socket.setNoDelay(true);
    let buffer = Buffer.alloc(0);
    let started = false;
    let closed = false;
    let release: (() => void) | null = null;
    let idleTimer: NodeJS.Timeout | null = null;
    let chain: Promise<void> = Promise.resolve();
    const statements = new ConnectionStatements((connections += 1));
    const raw = async (message: Uint8Array): Promise<Buffer> => {
      const chunks: Uint8Array[] = [];
      await db.pglite.execProtocolRawStream(message, {
        onRawData: (data) => chunks.push(data.slice()),
      });
      return Buffer.concat(chunks);
    };
    // Names of statements prepared with SQL PREPARE, to tell which ones a simple Query added.
    const sqlPrepared = async (): Promise<Set<string> | null> => {
      try {
        const { rows } = await db.pglite.query<{ name: string }>(
          'select name from pg_prepared_statements where from_sql',
        );
        return new Set(rows.map((r) => r.name));
      } catch {
        return null; // an aborted transaction: PREPARE fails there anyway
      }
    };

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
        // Its prepared statements go with it, as with a real server's backend.
        const closes = statements.closeAll();
        if (closes.length) await raw(Buffer.concat([...closes, SYNC]));
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
    const end = (): Promise<void> => {
      if (closed) return chain;
      closed = true;
      socket.destroy();
      chain = chain.then(finish).finally(() => sockets.delete(socket));
      return chain;
    };
    sockets.set(socket, end);

    // After a refused Parse the client's extended-protocol batch is skipped until its Sync.
    let skipUntilSync = false;
    const execute = async (message: Buffer): Promise<Buffer> => {
      const status = () => (db.pglite.isInTransaction() ? 'T' : 'I');
      if (skipUntilSync) {
        if (message[0] !== 0x53 /* S */) return Buffer.alloc(0);
        skipUntilSync = false;
        return readyForQuery(status());
      }
      const sql = statementText(message);
      const refused = sql === null ? null : refusal(sql);
      if (refused) {
        const error = errorMessage('ERROR', '0A000', refused);
        if (message[0] === 0x50 /* P */) {
          skipUntilSync = true;
          return error;
        }
        return Buffer.concat([error, readyForQuery(status())]);
      }
      // The session's DEALLOCATE ALL would drop every client's statements and the emulator's.
      if (message[0] === 0x51 /* Q */ && ConnectionStatements.isDeallocateAll(sql!)) {
        const closes = statements.closeAll();
        if (closes.length) await raw(Buffer.concat([...closes, SYNC]));
        return Buffer.concat([commandComplete('DEALLOCATE ALL'), readyForQuery(status())]);
      }
      const before = message[0] === 0x51 && /\bprepare\b/i.test(sql!) ? await sqlPrepared() : null;
      const { message: renamed, reparse } = statements.rewrite(message);
      if (reparse) {
        // The client's unnamed statement, parsed in an earlier turn, may have been replaced.
        const parsed = await raw(new Uint8Array(reparse));
        if (parsed[0] === 0x45 /* E */) {
          skipUntilSync = true;
          return statements.restoreNames(parsed);
        }
      }
      const out = await raw(new Uint8Array(renamed));
      if (before) {
        const after = await sqlPrepared();
        if (after) statements.preparedWithSql([...after].filter((name) => !before.has(name)));
      }
      return statements.restoreNames(out);
    };

    const handle = async (message: Buffer) => {
      if (closed) return;
      clearIdle();
      if (!release) {
        release = await db.lock.acquire();
        statements.newTurn();
      }
      if (closed) return;
      const out = await execute(message);
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
      await Promise.all([...sockets.values()].map((end) => end()));
      await closing;
    },
  };
}
