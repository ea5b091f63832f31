import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startPrimaryAndReplica, type PrimaryAndReplica } from "../support/replica";
import { startServerProcess, type ServerProcess } from "../support/server-process";

/**
 * Issue 55 item 3, docs/operations.md "A read replica": the store (the compiled server, as
 * `npm start` runs it) on Debian's PostgreSQL 15 and a streaming replica made with
 * `pg_basebackup -R`. Which server answered a read is read from the servers' own statement logs
 * (`log_statement = all`): a catalog read is a statement on `products`. The read cache keeps no
 * answers (CATALOG_CACHE=false), so every read reaches a database.
 */
const root = path.resolve(import.meta.dirname, "../..");
/** The lag bound of this test: reads go back to the primary once the replica is further behind. */
const MAX_LAG_SECONDS = 2;

let servers: PrimaryAndReplica;
let store: ServerProcess;
let dataDir: string;

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { cwd: root, stdio: "ignore" });
  servers = await startPrimaryAndReplica({ logStatements: true });
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-replica-data-"));
  store = await startServerProcess(
    {
      DATABASE_URL: servers.primaryUrl,
      DATABASE_READ_URL: servers.replicaUrl,
      DATABASE_READ_MAX_LAG_SECONDS: String(MAX_LAG_SECONDS),
      // Long enough that a busy machine's test still holds the cookie when it checks its effect.
      DATABASE_READ_OWN_WRITES_SECONDS: "120",
      CATALOG_CACHE: "false",
      DATA_DIR: dataDir,
      DEMO_IDENTITY_PROVIDER: "false",
      LOG_LEVEL: "warn",
      METRICS_TOKEN: "replica-test-metrics-token",
    },
    [],
    { compiled: true },
  );
}, 180_000);

afterAll(async () => {
  await store?.stop();
  await servers?.stop();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

/** The statements on the products table a server logged from this point of its log on. */
const productStatements = (server: "primary" | "replica", from: number) =>
  servers
    .log(server)
    .slice(from)
    // An entry starts with its timestamp; a statement may span lines.
    .split(/\n(?=\d{4}-\d\d-\d\d )/)
    .map((entry) => /LOG: {2}(?:statement|execute [^:]*): ([\s\S]*)$/.exec(entry)?.[1]?.trim())
    .filter((statement): statement is string => !!statement?.includes('from "products"'));

let offset = 0;
/**
 * A catalog page no read asked for before; returns which servers read products for it. A server's
 * log also holds the store's own background work (jobs read products too), so `primaryPage`
 * counts only the primary's statements that are the very ones the page's read ran on the replica.
 */
async function readPage(
  cookie = "",
): Promise<{ primary: number; replica: number; primaryPage: number }> {
  const before = { primary: servers.log("primary").length, replica: servers.log("replica").length };
  offset = (offset + 1) % 40;
  const res = await fetch(`${store.url}/api/products?limit=2&offset=${offset}`, {
    headers: cookie ? { cookie } : {},
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  // The servers' logs come through pipes and may trail the answer: wait until this read's
  // statements are in, and no more arrive between two looks.
  let primary: string[] = [];
  let replica: string[] = [];
  for (let seen = -1, deadline = Date.now() + 5_000; Date.now() < deadline;) {
    primary = productStatements("primary", before.primary);
    replica = productStatements("replica", before.replica);
    const now = primary.length + replica.length;
    if (now > 0 && now === seen) break;
    seen = now;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    primary: primary.length,
    replica: replica.length,
    primaryPage: primary.filter((statement) => replica.includes(statement)).length,
  };
}

/** Reads pages until one is read where `where` says, for at most `ms`. */
async function untilReadOn(where: "primary" | "replica", ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const read = await readPage();
    if (where === "replica" ? read.replica > 0 && read.primaryPage === 0 : read.primary > 0) return;
    if (Date.now() > deadline) throw new Error(`catalog reads never went to the ${where}`);
  }
}

/** Whether the store counts the replica as usable now (its own gauge). */
async function replicaUsable(): Promise<boolean> {
  const metrics = await (
    await fetch(`${store.url}/metrics`, {
      headers: { authorization: "Bearer replica-test-metrics-token" },
    })
  ).text();
  return /^store_read_replica_usable 1$/m.test(metrics);
}

test("catalog reads come from the replica", async () => {
  await untilReadOn("replica");
  // A read goes to the primary whenever the replica falls behind the bound, as it may while the
  // store's jobs start beside this test: only reads with the replica usable before and after count.
  let counted = 0;
  for (const deadline = Date.now() + 60_000; counted < 20 && Date.now() < deadline;) {
    if (!(await replicaUsable())) continue;
    const read = await readPage();
    if (!(await replicaUsable())) continue;
    expect(read.replica).toBeGreaterThan(0);
    expect(read.primaryPage).toBe(0);
    counted++;
  }
  expect(counted).toBe(20);
  expect(servers.log("replica")).toMatch(/select [\s\S]*? from "products"/);
  const metrics = await (
    await fetch(`${store.url}/metrics`, {
      headers: { authorization: "Bearer replica-test-metrics-token" },
    })
  ).text();
  expect(metrics).toMatch(/^store_read_replica_usable [01]$/m);
  expect(metrics).toMatch(/^store_read_replica_lag_seconds \d/m);
  const replicaReads = /^store_catalog_reads_total\{database="replica"\} (\d+)$/m.exec(metrics);
  expect(Number(replicaReads?.[1])).toBeGreaterThanOrEqual(20);
}, 120_000);

test("past the lag bound, reads go to the primary until the replica catches up", async () => {
  await untilReadOn("replica");
  await servers.onReplica("select pg_wal_replay_pause()");
  try {
    // Something written that is not the catalog: only the lag can send reads to the primary.
    await servers.onPrimary("create table if not exists lag_test (n int)");
    await servers.onPrimary("insert into lag_test select generate_series(1, 1000)");
    await untilReadOn("primary", (MAX_LAG_SECONDS + 30) * 1000);
    for (let i = 0; i < 10; i++) {
      expect(await readPage()).toMatchObject({ replica: 0 });
    }
  } finally {
    await servers.onReplica("select pg_wal_replay_resume()");
  }
  await untilReadOn("replica");
}, 120_000);

test("an admin who changed a product reads the change at once", async () => {
  await untilReadOn("replica");
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const send = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${store.url}${url}`, {
      method,
      headers: {
        cookie: cookie(),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(";");
      const at = pair!.indexOf("=");
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return res;
  };
  const signIn = await send("POST", "/api/auth/sign-in/email", {
    email: "admin@example.com",
    password: "admin123",
  });
  expect(signIn.status).toBe(200);
  const [product] = (await (await send("GET", "/api/products?limit=1")).json()) as {
    _id: string;
    price: number;
  }[];
  const price = Math.round((product!.price + 1.11) * 100) / 100;

  // The replica replays nothing more: a read there would show the old price.
  await servers.onReplica("select pg_wal_replay_pause()");
  try {
    const edit = await send("PATCH", `/api/products/${product!._id}`, { price });
    expect(edit.status).toBe(200);
    expect(jar.get("pw_wrote")).toMatch(/^\d+$/);
    const before = servers.log("replica").length;
    const read = await send("GET", `/api/products/${product!._id}`);
    expect(((await read.json()) as { price: number }).price).toBe(price);
    expect(productStatements("replica", before)).toEqual([]);
    // A visitor too: the change was heard, and the replica has not replayed it.
    const visitor = await fetch(`${store.url}/api/products/${product!._id}`);
    expect(((await visitor.json()) as { price: number }).price).toBe(price);
    const [onReplica] = await servers.onReplica<{ price_cents: number }>(
      `select price_cents from products where id = '${product!._id}'`,
    );
    expect(onReplica!.price_cents).toBe(Math.round(product!.price * 100));
  } finally {
    await servers.onReplica("select pg_wal_replay_resume()");
  }
  await untilReadOn("replica");
  // The replica has the change and is used again, but not for the admin's session yet: its reads
  // stay on the primary (and off the cache) for DATABASE_READ_OWN_WRITES_SECONDS.
  expect(await readPage(cookie())).toMatchObject({ replica: 0 });
  expect((await readPage(cookie())).primary).toBeGreaterThan(0);
  const anonymous = await readPage();
  expect(anonymous.replica).toBeGreaterThan(0);
  expect(anonymous.primaryPage).toBe(0);
}, 120_000);
