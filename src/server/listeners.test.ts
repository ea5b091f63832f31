import { readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, expect, test } from "vitest";
import { drainAndClose, trackConnections } from "./drain";
import { canReusePort, listenOnSockets, type ListenOptions } from "./listeners";

// The unit stage runs on Node 20 (one socket, the fallback); `npm run test:pgbouncer` runs this
// file again on Node 24, where the sockets are several.
const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function store(opts: Partial<ListenOptions> = {}) {
  const app = Fastify();
  trackConnections(app);
  app.get("/ping", async () => ({ ok: true }));
  apps.push(app);
  const warnings: string[] = [];
  let dropped = 0;
  const sockets = await listenOnSockets(app, {
    port: 0,
    host: "127.0.0.1",
    backlog: 511,
    sockets: 8,
    maxConnections: 0,
    onDrop: () => dropped++,
    warn: (m) => warnings.push(m),
    ...opts,
  });
  const port = (app.server.address() as net.AddressInfo).port;
  return { app, port, sockets, warnings, dropped: () => dropped };
}

/** Listening TCP sockets on a loopback port, as the kernel lists them. */
function listeningOn(port: number): number {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, "0")} `;
  return readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .filter((line) => line.includes(hexPort) && line.split(/\s+/)[4] === "0A").length;
}

/** One GET on a connection of its own. */
const ping = (port: number) =>
  new Promise<number>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/ping", agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      })
      .on("error", reject);
  });

const connectOutcome = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? "error"));
  });

// Where Node cannot (Node 20), the store listens on one socket, and every rule below holds the same.
const several = canReusePort();

test("unset: 48 sockets where Node can bind several, else one, and nothing said", async () => {
  const { port, sockets, warnings } = await store({ sockets: undefined });
  expect(sockets).toBe(several ? 48 : 1);
  expect(listeningOn(port)).toBe(sockets);
  expect(warnings).toEqual([]);
});

test("LISTEN_SOCKETS=8: a crowd of connections over the sockets is answered by the one server", async () => {
  const { port, sockets, warnings } = await store({ sockets: 8 });
  expect(sockets).toBe(several ? 8 : 1);
  expect(listeningOn(port)).toBe(sockets);
  expect(warnings).toEqual(
    several
      ? []
      : [
          `LISTEN_SOCKETS=8 needs Node.js 22.12 or later (this is ${process.version}): listening on one socket`,
        ],
  );
  const statuses = await Promise.all(Array.from({ length: 64 }, () => ping(port)));
  expect(statuses).toEqual(Array(64).fill(200));
});

test("a second store on a port the first listens on is refused (SO_REUSEPORT would share it)", async () => {
  const { port } = await store({ sockets: 8 });
  await expect(store({ port })).rejects.toMatchObject({ code: "EADDRINUSE" });
});

test("MAX_CONNECTIONS counts the connections of every socket together", async () => {
  const { port, dropped } = await store({ sockets: 4, maxConnections: 5 });
  const opened = await Promise.all(
    Array.from(
      { length: 20 },
      () =>
        new Promise<net.Socket>((resolve) => {
          const socket = net.connect(port, "127.0.0.1", () => resolve(socket));
          socket.on("error", () => {});
        }),
    ),
  );
  await expect.poll(dropped).toBe(15);
  await expect.poll(() => opened.filter((s) => !s.destroyed && !s.readableEnded).length).toBe(5);
  for (const s of opened) s.destroy();
});

test("closing or draining the app stops every socket accepting", async () => {
  const closed = await store({ sockets: 4 });
  await closed.app.close();
  apps.splice(apps.indexOf(closed.app), 1);
  expect(listeningOn(closed.port)).toBe(0);
  expect(await connectOutcome(closed.port)).toBe("ECONNREFUSED");

  // A drain stops every socket at once, while the connections it has are still finishing.
  const drained = await store({ sockets: 4 });
  const kept = await new Promise<net.Socket>((resolve) => {
    const socket = net.connect(drained.port, "127.0.0.1", () => resolve(socket));
  });
  const draining = drainAndClose(drained.app, 5000, () => {});
  expect(listeningOn(drained.port)).toBe(0);
  expect(kept.destroyed).toBe(false);
  await draining;
  kept.destroy();
  apps.splice(apps.indexOf(drained.app), 1);
});

test("which Node.js versions can bind several sockets to one port", () => {
  expect(["20.20.2", "22.11.0", "23.0.0"].map((v) => canReusePort(v))).toEqual([
    false,
    false,
    false,
  ]);
  expect(["22.12.0", "23.1.0", "24.21.0"].map((v) => canReusePort(v))).toEqual([true, true, true]);
});
