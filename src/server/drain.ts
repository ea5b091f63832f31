import { Server as NetServer, type Socket } from "node:net";
import type { FastifyInstance } from "fastify";

/**
 * Graceful shutdown without resets (issue 24; fault injection of 75cca6d, row 2).
 *
 * Closing the HTTP server at once closes every kept-alive connection that is idle at that
 * instant, and a request its client has just sent on it is then reset (ECONNRESET), never
 * answered. So the store drains first:
 * - it stops accepting connections (a client is refused at connect, and knows nothing was sent),
 *   but keeps those it has;
 * - every answer from then on says `Connection: close`, and the connection closes after it: a
 *   client learns not to reuse it from the answer itself;
 * - readiness answers 503, so a load balancer sends new work elsewhere;
 * - a connection with no request in flight is closed once it has stayed idle for
 *   IDLE_GRACE_MS (a request already on its way has arrived by then);
 * once every connection is gone (or the deadline passes), the app closes: past the deadline what
 * still runs is cut.
 */
export const IDLE_GRACE_MS = 300;

interface Connections {
  draining: boolean;
  /** Each open connection, with how many requests it has in flight and when it was last busy. */
  open: Map<Socket, { inFlight: number; idleSince: number }>;
  /** Listening sockets that hand their connections to the HTTP server (listeners.ts). */
  alsoAccepting: readonly NetServer[];
}

const tracked = new WeakMap<FastifyInstance, Connections>();

/** Tracks the server's connections; call once, before listening. */
export function trackConnections(app: FastifyInstance): { isDraining: () => boolean } {
  const state: Connections = { draining: false, open: new Map(), alsoAccepting: [] };
  tracked.set(app, state);
  app.server.on("connection", (socket: Socket) => {
    state.open.set(socket, { inFlight: 0, idleSince: performance.now() });
    socket.once("close", () => state.open.delete(socket));
  });
  app.server.on("request", (req, res) => {
    const conn = state.open.get(req.socket);
    if (!conn) return;
    conn.inFlight += 1;
    res.once("close", () => {
      conn.inFlight -= 1;
      conn.idleSince = performance.now();
    });
  });
  // A callback, not async: an async hook would put every answer's write off to a microtask.
  app.addHook("onSend", (_req, reply, payload, done) => {
    if (state.draining) reply.header("connection", "close");
    done(null, payload);
  });
  return { isDraining: () => state.draining };
}

/** Sockets that accept for the app's HTTP server (listeners.ts): a drain stops them too. */
export function stopAcceptingAlso(app: FastifyInstance, servers: readonly NetServer[]): void {
  const state = tracked.get(app);
  if (state) state.alsoAccepting = servers;
}

/**
 * Drains the connections (above), then closes the app (its onClose hooks stop the jobs, the
 * catalog listener and the pool). Past `deadlineMs` the connections still open are closed.
 */
export async function drainAndClose(
  app: FastifyInstance,
  deadlineMs: number,
  log: (msg: string) => void,
): Promise<void> {
  const state = tracked.get(app);
  const started = performance.now();
  const deadline = setTimeout(() => {
    log(`requests still running after ${deadlineMs} ms: closing their connections`);
    app.server.closeAllConnections();
  }, deadlineMs);
  try {
    if (state) {
      state.draining = true;
      // net's close, not http's: http's also closes the idle kept-alive connections at once,
      // which is the reset this drain avoids. (The app's close below closes http's side; it
      // accepts a server that no longer listens.)
      NetServer.prototype.close.call(app.server);
      for (const server of state.alsoAccepting) server.close();
      log(`draining ${state.open.size} open connections`);
      await new Promise<void>((resolve) => {
        const check = () => {
          const now = performance.now();
          for (const [socket, conn] of state.open) {
            if (conn.inFlight === 0 && now - Math.max(conn.idleSince, started) >= IDLE_GRACE_MS) {
              socket.destroySoon();
              state.open.delete(socket);
            }
          }
          if (state.open.size === 0 || now - started >= deadlineMs) {
            clearInterval(timer);
            resolve();
          }
        };
        const timer = setInterval(check, 25);
        check();
      });
    }
    // Past the deadline: what is still open is idle or finishing, and handled as it always was.
    const idle = setInterval(() => app.server.closeIdleConnections(), 50);
    try {
      await app.close();
    } finally {
      clearInterval(idle);
    }
    log(`HTTP closed after ${Math.round(performance.now() - started)} ms`);
  } finally {
    clearTimeout(deadline);
  }
}
