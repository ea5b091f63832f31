import net from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { changeOf, listenForChanges } from "./listener";

let database: TestDatabase;
const quiet = { warn: () => {} };

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

/** Resolves once `states` holds `value` as its last entry (or fails after `ms`). */
async function until(states: boolean[], value: boolean, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (states.at(-1) !== value) {
    if (Date.now() > deadline) throw new Error(`still ${String(states.at(-1))} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * A listener on `url` that pings every `pingMs`, and the listening states it has reported. While
 * `deaf` is set, its pings go to a channel nobody listens on: the connection is up but hears
 * nothing, as a LISTEN through a transaction pooler does.
 */
function pingedListener(url: string, pingMs: number) {
  const heard = { states: [] as boolean[], deaf: false };
  const listener = listenForChanges(
    url,
    { onChange: () => {}, onListening: (l) => heard.states.push(l) },
    quiet,
    {
      notify: (channel, payload) =>
        database.pool.query("select pg_notify($1, $2)", [
          heard.deaf ? "elsewhere" : channel,
          payload,
        ]),
      pingMs,
    },
  );
  return Object.assign(heard, { stop: () => listener.stop() });
}

test("the listener counts as listening only while its own pings come back", async () => {
  const pinged = pingedListener(database.directUrl, 100);
  try {
    await until(pinged.states, true);
    pinged.deaf = true;
    await until(pinged.states, false);
    pinged.deaf = false;
    await until(pinged.states, true);
    expect(pinged.states.slice(0, 3)).toEqual([true, false, true]);
  } finally {
    await pinged.stop();
  }
});

/** A TCP proxy to PostgreSQL that opens each connection only after `delayMs`. */
async function slowProxy(databaseUrl: string, delayMs: number) {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.pause();
    setTimeout(() => {
      const upstream = net.connect(Number(target.port), target.hostname, () => client.resume());
      sockets.add(upstream);
      client.pipe(upstream).pipe(client);
      const close = () => (client.destroy(), upstream.destroy());
      client.on("close", close).on("error", close);
      upstream.on("close", close).on("error", close);
    }, delayMs);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

test("a connection slower to open than a ping interval still gets to listen, again after a reconnect", async () => {
  const proxy = await slowProxy(database.directUrl, 300);
  const pinged = pingedListener(proxy.url, 50);
  try {
    await until(pinged.states, true, 10_000);
    pinged.deaf = true;
    await until(pinged.states, false);
    pinged.deaf = false;
    await until(pinged.states, true, 10_000);
    expect(pinged.states.slice(0, 3)).toEqual([true, false, true]);
  } finally {
    await pinged.stop();
    await proxy.close();
  }
});

test("changes from other connections are heard; pings are not changes", async () => {
  const states: boolean[] = [];
  const changes: string[] = [];
  const listener = listenForChanges(
    database.directUrl,
    { onChange: (c) => changes.push(c), onListening: (l) => states.push(l) },
    quiet,
    {
      notify: (channel, payload) =>
        database.pool.query("select pg_notify($1, $2)", [channel, payload]),
      pingMs: 100,
    },
  );
  try {
    await until(states, true);
    await database.pool.query("select pg_notify('catalog_changed', 'stock')");
    await database.pool.query("select pg_notify('catalog_changed', 'ping:someone-else:1')");
    await database.pool.query("select pg_notify('catalog_changed', '')");
    const deadline = Date.now() + 5_000;
    while (changes.length < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(changes).toEqual(["stock", "catalog"]);
  } finally {
    await listener.stop();
  }
});

test("a payload is a topic, and for a keyed one what of it changed; one naming no topic is the catalog", () => {
  expect(changeOf("stock")).toEqual({ topic: "stock" });
  expect(changeOf("markets")).toEqual({ topic: "markets" });
  expect(changeOf("addresses")).toEqual({ topic: "addresses" });
  expect(changeOf("addresses:user-1")).toEqual({ topic: "addresses", key: "user-1" });
  expect(changeOf("catalog")).toEqual({ topic: "catalog" });
  expect(changeOf("something:else")).toEqual({ topic: "catalog" });
});
