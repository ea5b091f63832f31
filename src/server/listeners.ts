import net from "node:net";
import type { FastifyInstance } from "fastify";
import { stopAcceptingAlso } from "./drain";
import { capConnections } from "./overload";

/**
 * The store's listening sockets (issue 49, finding 10; docs/operations.md "Overload").
 *
 * libuv accepts one connection per listening socket per turn of the event loop (since 1.45), and
 * under an overload a turn that serves hundreds of busy connections takes tens of milliseconds:
 * a crowd of new connections then waits in the kernel's accept queue, where the shedding cannot
 * see it (measured: 925 queued, 25 accepted a second). Several sockets bound to the one port with
 * SO_REUSEPORT each accept one a turn, and the kernel spreads new connections over them. Every
 * socket hands its connections to the one HTTP server, so nothing else changes: the same hooks,
 * the same drain, one MAX_CONNECTIONS over all of them. Node.js has `reusePort` from 22.12 and
 * 23.1; on an older Node the store listens on one socket, as before.
 */
export interface ListenOptions {
  port: number;
  host: string;
  /** The kernel's queue of connections not yet accepted, for each socket. */
  backlog: number;
  /** LISTEN_SOCKETS: how many sockets listen on the port; unset, DEFAULT_SOCKETS where Node can. */
  sockets: number | undefined;
  /** MAX_CONNECTIONS over all the sockets; 0: no cap. */
  maxConnections: number;
  /** Told of each connection closed at once for being beyond maxConnections. */
  onDrop: () => void;
  /** Told why the store listens on fewer sockets than asked. */
  warn: (message: string) => void;
}

/**
 * Measured with `npm run bench:node24 -- overload` (2026-12-03): a thousand connections opened
 * into ten times the order rate waited p99 5.2 s on one socket, 1.7 s on 16 and 0.5 s on 48.
 */
export const DEFAULT_SOCKETS = 48;

/** Whether this Node.js can bind several sockets to one port (`reusePort`: 22.12+, 23.1+). */
export function canReusePort(version = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major >= 24 || (major === 23 && minor >= 1) || (major === 22 && minor >= 12);
}

/** Listens as `opts` says; resolves with how many sockets listen. */
export async function listenOnSockets(app: FastifyInstance, opts: ListenOptions): Promise<number> {
  let sockets = opts.sockets ?? (canReusePort() ? DEFAULT_SOCKETS : 1);
  if (sockets > 1 && !canReusePort()) {
    opts.warn(
      `LISTEN_SOCKETS=${sockets} needs Node.js 22.12 or later (this is ${process.version}): listening on one socket`,
    );
    sockets = 1;
  }
  const { port, host, backlog } = opts;
  if (sockets === 1) {
    capConnections(app.server, opts.maxConnections, opts.onDrop);
    await app.listen({ port, host, backlog });
    return 1;
  }

  // With SO_REUSEPORT a second store started on a taken port would share it silently (the
  // kernel only asks that both run as the same user): it is refused as without it.
  if (port !== 0) await refuseIfTaken(port, host);
  const more: net.Server[] = [];
  stopAcceptingAlso(app, more);
  app.addHook("onClose", (_app, done) => {
    for (const server of more) server.close();
    done();
  });

  // One count over every socket. The HTTP server's own (first) socket has its connections
  // counted and capped as they arrive; the others' are capped before they are handed over.
  let open = 0;
  const handedOver = new WeakSet<net.Socket>();
  const admit = (socket: net.Socket): boolean => {
    if (opts.maxConnections > 0 && open >= opts.maxConnections) {
      socket.destroy();
      opts.onDrop();
      return false;
    }
    open += 1;
    socket.once("close", () => (open -= 1));
    return true;
  };
  app.server.prependListener("connection", (socket: net.Socket) => {
    if (!handedOver.has(socket)) admit(socket);
  });

  // `reusePort` is newer than this project's Node types: passed in a variable, not a literal.
  const shared = { port, host, backlog, reusePort: true };
  await app.listen(shared);
  const bound = (app.server.address() as net.AddressInfo).port;
  for (let i = 1; i < sockets; i++) {
    // noDelay as node:http sets it on its own sockets.
    const server = net.createServer({ noDelay: true }, (socket) => {
      if (!admit(socket)) return;
      handedOver.add(socket);
      app.server.emit("connection", socket);
    });
    more.push(server);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen({ ...shared, port: bound }, () => {
        server.off("error", reject);
        resolve();
      });
    });
  }
  return sockets;
}

/** Fails as listen would (EADDRINUSE) when another socket holds host:port. */
async function refuseIfTaken(port: number, host: string): Promise<void> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen({ port, host, exclusive: true }, () => resolve());
  });
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}
