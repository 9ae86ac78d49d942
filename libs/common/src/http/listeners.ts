import type { Server } from 'node:http';
import { AddressInfo, createServer, Server as NetServer } from 'node:net';

/**
 * Connections the kernel holds for each listening socket before it is accepted (capped by net.core.somaxconn).
 * Node's default, 511, is less than a fleet reconnecting at once: the kernel drops the rest's SYNs, and each waits
 * a second for its resend, probes included.
 */
export const LISTEN_BACKLOG = 4096;

/**
 * Listening sockets per server where Node has SO_REUSEPORT. Node accepts one connection per listening socket and
 * turn of its event loop: while the service works, about a thousand a second, so two thousand clients connecting
 * within half a second waited up to a second and a half in the kernel's queue. The kernel spreads new connections
 * over the sockets of a port, and each turn then accepts one per socket.
 */
export const ACCEPTING_SOCKETS = 4;

/** `reusePort` came with Node 22.12 and 23.1; older versions would refuse the second socket (EADDRINUSE). */
const REUSE_PORT = (() => {
  const [major, minor] = process.versions.node.split('.').map(Number);
  return major > 23 || (major === 23 && minor >= 1) || (major === 22 && minor >= 12);
})();

/** The sockets besides a server's own that hand it their connections. */
const helpers = new WeakMap<Server, NetServer[]>();

/**
 * `server.listen` with LISTEN_BACKLOG and, where Node allows, ACCEPTING_SOCKETS - 1 more sockets on the same port,
 * each handing the connections it accepts to the HTTP server (`emit('connection')`, Node's documented way to give
 * an HTTP server a connection). `callback` once all listen; a helper that cannot is left out (the server serves on).
 */
export function listenWide(server: Server, port: number, host: string | undefined, callback?: () => void): Server {
  if (!REUSE_PORT) return server.listen({ port, host, backlog: LISTEN_BACKLOG }, callback);
  return server.listen({ port, host, backlog: LISTEN_BACKLOG, reusePort: true }, () => {
    const bound = (server.address() as AddressInfo).port;
    const sockets: NetServer[] = [];
    helpers.set(server, sockets);
    const started = Array.from({ length: ACCEPTING_SOCKETS - 1 }, () => {
      // noDelay as the HTTP server's own sockets have it
      const socket = createServer({ noDelay: true }, (connection) => server.emit('connection', connection));
      return new Promise<void>((resolve) =>
        socket
          .once('error', () => resolve())
          .listen({ port: bound, host, backlog: LISTEN_BACKLOG, reusePort: true }, () => {
            sockets.push(socket);
            resolve();
          }),
      );
    });
    void Promise.all(started).then(() => callback?.());
  });
}

/**
 * Stops the helper sockets of `server` accepting (its own is closed by the caller); resolves once their
 * connections have ended, as net.Server's close does for the server's own.
 */
export function closeHelpers(server: Server): Promise<void> {
  const sockets = helpers.get(server) ?? [];
  helpers.delete(server);
  return Promise.all(sockets.map((socket) => new Promise<void>((resolve) => socket.close(() => resolve())))).then(() => undefined);
}

/** The sockets `server` listens on: its own and its helpers. */
export const listeningSockets = (server: Server): number => (server.listening ? 1 : 0) + (helpers.get(server)?.length ?? 0);

/** Whether this Node listens on several sockets per port (SO_REUSEPORT). */
export const acceptsOnSeveralSockets = (): boolean => REUSE_PORT;
