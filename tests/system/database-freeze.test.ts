import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, expect, test } from "vitest";
import { TEST_SHIP_TO } from "../support/destination";
import { signedUpHttpCustomers } from "../support/http-customer";
import { startServerProcess, type ServerProcess } from "../support/server-process";

// The embedded PostgreSQL frozen (SIGSTOP to the postmaster and every backend) under orders, then
// thawed (SIGCONT): every request is answered within its timeout, health within 2 s, and no order
// is placed whose client was not told so.
const REQUEST_TIMEOUT_MS = 3_000;
const FREEZE_MS = 8_000;
let server: ServerProcess | undefined;
let dataDir: string | undefined;
let webDir: string | undefined;

afterAll(async () => {
  await server?.stop();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  if (webDir) await fs.rm(webDir, { recursive: true, force: true });
});

/** A stand-in for the built web app: the landing page pre-rendered, as the build makes it. */
async function webApp(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "store-freeze-web-"));
  await fs.mkdir(path.join(dir, "pages"));
  await fs.writeFile(path.join(dir, "index.html"), "<!doctype html><title>store</title>");
  await fs.writeFile(path.join(dir, "pages", "index.html"), "<head><title>landing</title></head>");
  return dir;
}

async function postgresPids(dir: string): Promise<number[]> {
  const text = await fs.readFile(path.join(dir, "postgres", "postmaster.pid"), "utf8");
  const postmaster = Number.parseInt(text.split("\n")[0]!, 10);
  const children: number[] = [];
  for (const entry of await fs.readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    // pid (comm) state ppid …: the comm may hold spaces, so read after its closing bracket.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid === postmaster) children.push(Number(entry));
  }
  return [postmaster, ...children];
}

async function directClient(dir: string): Promise<pg.Client> {
  const pid = await fs.readFile(path.join(dir, "postgres", "postmaster.pid"), "utf8");
  const port = pid.split("\n")[3]!.trim();
  const password = (await fs.readFile(path.join(dir, "postgres-password"), "utf8")).trim();
  const c = new pg.Client({
    connectionString: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
  });
  await c.connect();
  return c;
}

/** The store ships to TEST_SHIP_TO's Oregon, for nothing (as `shipsToTestAddress` sets it up). */
async function shipsToTestAddress(db: pg.Client): Promise<void> {
  await db.query(
    `with zone as (
       insert into shipping_zones (name, countries, regions)
       values ('Test courier', array['US'], array['OR'])
       returning id)
     insert into shipping_methods (zone_id, name, estimate, kind, price_cents)
     select id, 'Test courier', '1-2 business days', 'flat', 0 from zone`,
  );
}

/** A product of 1,000 in stock, ordered while the database is frozen; its id. */
async function insertPart(db: pg.Client, name: string, partNumber: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into products (name, part_number, category, img, price_cents, minimum_order,
       available_quantity, short_description, warranty_months, creator_email)
     values ($1, $2, 'Other', '/images/products/oil-filter.svg', 500, 1, 1000,
       'A part ordered while the database is frozen', 12, 'admin@example.com')
     returning id`,
    [name, partNumber],
  );
  return rows[0]!.id;
}

async function timed(url: string, init: RequestInit = {}) {
  const started = Date.now();
  try {
    const res = await fetch(url, {
      ...init,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS + 2_000),
    });
    await res.text();
    return { status: res.status, ms: Date.now() - started };
  } catch {
    return { status: 0, ms: Date.now() - started };
  }
}

test("a frozen database: answers in time, health in 2 s, no order its client gave up on", async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-freeze-"));
  await fs.chmod(dataDir, 0o755);
  webDir = await webApp();
  server = await startServerProcess({
    DATA_DIR: dataDir,
    WEB_DIST_DIR: webDir,
    SEED_DEMO_DATA: "false",
    LOG_LEVEL: "warn",
    DB_CONNECT_TIMEOUT_SECONDS: "1",
    DB_STATEMENT_TIMEOUT_SECONDS: "2",
    REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_MS / 1000),
    AUTH_RATE_LIMIT_PER_IP: "100000",
    HOLD_NEW_CUSTOMER_SHARE: "1",
    HOLD_MAX_VALUE: "1000000000",
    HOLD_FREE_UNITS: "1000000",
  });
  const db = await directClient(dataDir);
  try {
    await shipsToTestAddress(db);
    const productId = await insertPart(db, "Frozen part", "FRZ-1");
    const customers = await signedUpHttpCustomers(10, "frozen", server.url);
    // The landing page's structured data lists the new product (once a read has come in time).
    let landingBefore = "";
    await expect
      .poll(async () => (landingBefore = await fetch(`${server!.url}/`).then((r) => r.text())), {
        timeout: 10_000,
      })
      .toContain("Frozen part");

    const pids = await postgresPids(dataDir);
    for (const pid of pids) process.kill(pid, "SIGSTOP");
    const frozenAt = Date.now();
    let results: { status: number; ms: number }[];
    let health: { status: number; ms: number }[];
    let landing: { status: number; ms: number; body: string }[] = [];
    try {
      const orders = customers.map(async (c) => {
        const started = Date.now();
        try {
          const res = await c.request("POST", "/api/orders", {
            productId,
            orderQty: 1,
            phonrNo: "5550100",
            Address: "4 Frozen Road",
            shipTo: { ...TEST_SHIP_TO, line1: "4 Frozen Road" },
          });
          return { status: res.status, ms: Date.now() - started };
        } catch {
          return { status: 0, ms: Date.now() - started };
        }
      });
      health = await Promise.all([
        timed(`${server.url}/api/health/live`),
        timed(`${server.url}/api/health/ready`),
        timed(`${server.url}/api/health`),
      ]);
      results = await Promise.all(orders);
      // Stay frozen for the rest of FREEZE_MS: requests keep being answered meanwhile.
      while (Date.now() - frozenAt < FREEZE_MS) {
        const more = await timed(`${server.url}/api/products/${productId}`);
        results.push(more);
      }
      // The pages do not wait for the database: the landing page goes out with the products it
      // last read, at once (issue 30, item 9; before, it waited for the request timeout).
      landing = await Promise.all(
        [0, 1, 2].map(async () => {
          const started = Date.now();
          const res = await fetch(`${server!.url}/`, { signal: AbortSignal.timeout(10_000) });
          return { status: res.status, body: await res.text(), ms: Date.now() - started };
        }),
      );
    } finally {
      for (const pid of pids) process.kill(pid, "SIGCONT");
    }
    const thawedAt = Date.now();
    // Recovered: an order goes through again.
    let recovered = 0;
    while (recovered !== 201) {
      if (Date.now() - thawedAt > 15_000) throw new Error("the store did not recover");
      recovered = (
        await customers[0]!.request("POST", "/api/orders", {
          productId,
          orderQty: 1,
          phonrNo: "5550100",
          Address: "4 Thawed Road",
          shipTo: { ...TEST_SHIP_TO, line1: "4 Thawed Road" },
        })
      ).status;
    }
    const recoveryMs = Date.now() - thawedAt;
    // Whatever was in flight inside PostgreSQL has finished by now: no other session is busy.
    while (
      Number(
        (
          await db.query<{ n: string }>(
            `select count(*) as n from pg_stat_activity
             where pid <> pg_backend_pid() and backend_type = 'client backend'
               and state in ('active', 'idle in transaction')`,
          )
        ).rows[0]!.n,
      ) > 0
    ) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const placed = Number(
      (
        await db.query<{ n: string }>(
          `select count(*) as n from order_items i join orders o on o.id = i.order_id
           where i.product_id = $1 and o.ship_to->>'line1' = '4 Frozen Road'`,
          [productId],
        )
      ).rows[0]!.n,
    );
    const acknowledged = results.slice(0, customers.length).filter((r) => r.status === 201).length;
    const slowest = Math.max(...results.map((r) => r.ms));
    console.log(
      `database frozen ${FREEZE_MS} ms: ${results.length} requests, slowest answered in ` +
        `${slowest} ms (statuses ${[...new Set(results.map((r) => r.status))].join("/")}); ` +
        `health live/ready/full ${health.map((h) => `${h.status} in ${h.ms} ms`).join(", ")}; ` +
        `orders acknowledged ${acknowledged}, in the database ${placed}; ` +
        `first order after the thaw in ${recoveryMs} ms; landing page ` +
        landing.map((l) => `${l.status} in ${l.ms} ms`).join(", "),
    );
    expect(results.filter((r) => r.status === 0)).toEqual([]);
    // A bound on hanging, not a speed figure: a request held until the thaw would take FREEZE_MS;
    // the slack over the timeout is for a busy CI machine (4.6 s was seen with 1.5 s of slack).
    expect(slowest).toBeLessThan(REQUEST_TIMEOUT_MS + 3_000);
    expect(REQUEST_TIMEOUT_MS + 3_000).toBeLessThan(FREEZE_MS);
    expect(health[0]!.status).toBe(200);
    for (const h of health) expect(h.ms).toBeLessThan(2_000);
    expect(placed).toBe(acknowledged);
    for (const l of landing) {
      expect(l.status).toBe(200);
      expect(l.body).toBe(landingBefore);
      expect(l.ms).toBeLessThan(1_000); // a bound on hanging, not a speed figure: it took 3 s
    }
  } finally {
    await db.end();
  }
}, 90_000);

// Fifth outside review (issue 49), finding 5: orders whose statements were in flight when the
// database froze waited for the request timeout (30 s), not the few seconds everything else got,
// so a client with a usual timeout gave up on orders that were then placed. The placing routes now
// have their own deadline, ORDER_TIMEOUT_SECONDS, below the request timeout.
test("orders in flight on a frozen database: 503 at ORDER_TIMEOUT_SECONDS, not the request timeout, and none placed after", async () => {
  const ORDER_TIMEOUT_MS = 2_000;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "store-freeze-orders-"));
  await fs.chmod(dir, 0o755);
  const store = await startServerProcess({
    DATA_DIR: dir,
    WEB_DIST_DIR: webDir ?? (webDir = await webApp()),
    SEED_DEMO_DATA: "false",
    LOG_LEVEL: "warn",
    // Every request has the usual 30 s; orders their own 2 s.
    REQUEST_TIMEOUT_SECONDS: "30",
    ORDER_TIMEOUT_SECONDS: String(ORDER_TIMEOUT_MS / 1000),
    AUTH_RATE_LIMIT_PER_IP: "100000",
    HOLD_NEW_CUSTOMER_SHARE: "1",
    HOLD_FREE_UNITS: "1000000",
  });
  const db = await directClient(dir);
  try {
    await shipsToTestAddress(db);
    const productId = await insertPart(db, "Deadline part", "DDL-1");
    const customers = await signedUpHttpCustomers(6, "deadline", store.url);
    const pids = await postgresPids(dir);
    for (const pid of pids) process.kill(pid, "SIGSTOP");
    let answers: { status: number; ms: number }[];
    try {
      answers = await Promise.all(
        customers.map(async (c) => {
          const started = Date.now();
          const res = await c.request("POST", "/api/orders", {
            productId,
            orderQty: 1,
            phonrNo: "5550100",
            Address: "5 Deadline Road",
            shipTo: { ...TEST_SHIP_TO, line1: "5 Deadline Road" },
          });
          await res.text();
          return { status: res.status, ms: Date.now() - started };
        }),
      );
    } finally {
      for (const pid of pids) process.kill(pid, "SIGCONT");
    }
    // Whatever was in flight inside PostgreSQL has finished once no other session is busy.
    await expect
      .poll(
        async () =>
          (
            await db.query(
              `select 1 from pg_stat_activity where pid <> pg_backend_pid()
                 and backend_type = 'client backend' and state in ('active', 'idle in transaction')`,
            )
          ).rowCount,
      )
      .toBe(0);
    const placed = Number(
      (
        await db.query<{ n: string }>(
          `select count(*) as n from orders where ship_to->>'line1' = '5 Deadline Road'`,
        )
      ).rows[0]!.n,
    );
    console.log(
      `frozen database, orders in flight: answered ${answers.map((a) => `${a.status} in ${a.ms} ms`).join(", ")}; placed ${placed}`,
    );
    for (const a of answers) {
      expect(a.status).toBe(503);
      expect(a.ms).toBeLessThan(ORDER_TIMEOUT_MS + 1_500);
    }
    expect(placed).toBe(0);
  } finally {
    await db.end();
    await store.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}, 90_000);
