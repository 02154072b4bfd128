// The gateway on IPv6 loopback too: `localhost` resolves to ::1 first for many clients (Node's
// fetch, browsers, curl), and the CLI's gateway answers there, so a client must not wait for a
// fallback to 127.0.0.1. Connections on ::1 are handed to the same HTTP server.
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { Server } from 'node:http';

/** Errors meaning this machine has no IPv6 loopback: the gateway then serves IPv4 only. */
const NO_IPV6 = new Set(['EADDRNOTAVAIL', 'EAFNOSUPPORT', 'EINVAL']);

export interface Ipv6Listener {
  close(): Promise<void>;
}

/**
 * Listens on `[::1]:port` and passes every connection to `server`. Resolves null when the
 * machine has no IPv6 loopback; rejects (EADDRINUSE) when something else holds that port there.
 */
export function listenOnIpv6Loopback(
  server: Server,
  port: number,
  log: (message: string) => void,
): Promise<Ipv6Listener | null> {
  const sockets = new Set<Socket>();
  const v6: NetServer = createNetServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    server.emit('connection', socket);
  });
  return new Promise((resolve, reject) => {
    v6.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code && NO_IPV6.has(err.code)) {
        log(`gateway: no IPv6 loopback here (${err.code}); serving 127.0.0.1 only`);
        resolve(null);
      } else reject(err);
    });
    v6.listen({ port, host: '::1', ipv6Only: true }, () => {
      resolve({
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            v6.close(() => done());
          }),
      });
    });
  });
}
