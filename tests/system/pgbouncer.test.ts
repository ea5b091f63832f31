import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { createDatabase, type Database } from "../../src/server/db/database";
import { orderItems } from "../../src/server/orders/tables";
import { products } from "../../src/server/catalog/tables";
import { user } from "../../src/server/users/tables";
import { demoProducts } from "../../src/server/catalog/demo-products";
import { orderToTestAddress } from "../support/destination";
import { HttpCustomer, signedUpHttpCustomers } from "../support/http-customer";
import { startPgBouncer, type PgBouncer } from "../support/pgbouncer";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { withClient } from "../support/pg-client";

// The store behind PgBouncer in transaction pooling mode: three processes start together on an
// empty database, then two of them take orders and see each other's catalog edits.
const adminUrl = inject("adminDatabaseUrl");
const name = `pgbouncer_${randomBytes(6).toString("hex")}`;
let direct: Database;
let bouncer: PgBouncer;
let servers: ServerProcess[] = [];
let dataDir: string;
let env: Record<string, string>;

const admin = (sql: string) => withClient(adminUrl, (c) => c.query(sql));

beforeAll(async () => {
  await admin(`create database ${name}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const directUrl = u.toString();
  direct = createDatabase(directUrl);
  bouncer = await startPgBouncer(adminUrl, 20);
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-pgbouncer-data-"));
  env = {
    DATABASE_URL: bouncer.pooled(directUrl),
    DATABASE_DIRECT_URL: directUrl,
    DATA_DIR: dataDir,
    BETTER_AUTH_SECRET: "shared-secret-of-all-processes-0123456789",
    AUTH_RATE_LIMIT_PER_IP: "100000",
    HOLD_NEW_CUSTOMER_SHARE: "1",
    ORDERS_PER_MINUTE: "10000",
    HOLD_MAX_VALUE: "1000000000",
    HOLD_FREE_UNITS: "1000000",
    SEED_DEMO_DATA: "true",
    DEMO_IDENTITY_PROVIDER: "false",
    CATALOG_PING_SECONDS: "1",
    LOG_LEVEL: "warn",
    // The 400 orders below arrive at once, 200 per process of 10 connections: this test is about
    // the pooler's semantics, not capacity, so a request may wait past the default 5 s for a
    // connection on a busy 2-core machine (capacity is measured by `npm run bench -- orders`).
    // The product gate's queue is bounded by the same wait: 20 customers of one product in one
    // process pass its gate 2 at a time, and were refused at once on a loaded CI machine (90 of
    // 400 "busy") when that queue looked longer than 20 s. The order and request deadlines
    // likewise (93 of 400 answered "unavailable" at 30 s beside the end-to-end tests).
    DB_CONNECT_TIMEOUT_SECONDS: "60",
    ORDER_TIMEOUT_SECONDS: "120",
    REQUEST_TIMEOUT_SECONDS: "120",
    // For the same reason none of them is shed for overload (200 at once per process, far past
    // the default bound of 50 waiting; shedding has its own test, tests/system/overload.test.ts).
    DB_QUEUE_MAX: "100000",
    EVENT_LOOP_LAG_MAX_MS: "0",
    // 40 customers order the same 10 products at once: on a busy machine a product's row is
    // waited for past the default 2 s lock timeout (17 of 400 answered 503 "busy" here).
    DB_LOCK_TIMEOUT_SECONDS: "20",
  };
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await direct?.close();
  await bouncer?.stop();
  await admin(`drop database if exists ${name} with (force)`);
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

test("three processes starting together on an empty database migrate and seed once", async () => {
  const started = await Promise.allSettled([0, 1, 2].map(() => startServerProcess(env)));
  servers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  expect(started.filter((s) => s.status === "rejected")).toEqual([]);
  const migrations = await direct.pool.query<{ n: string }>(
    `select count(*) as n, count(distinct hash) as d from drizzle.__drizzle_migrations`,
  );
  const journal = JSON.parse(
    await fs.readFile("src/server/db/migrations/meta/_journal.json", "utf8"),
  ) as { entries: unknown[] };
  expect(Number(migrations.rows[0]!.n)).toBe(journal.entries.length);
  expect(await direct.db.$count(products)).toBe(demoProducts.length);
  expect(await direct.db.$count(user)).toBe(2);
  // Three servers compiled by tsx at once: a minute and more on a busy 2-core machine.
}, 120_000);

test("400 concurrent orders across two processes all succeed through the pooler", async () => {
  const [a, b] = servers;
  // A customer orders a product once (while unpaid): 40 customers × 10 products.
  const made = await direct.db
    .insert(products)
    .values(
      Array.from({ length: 10 }, (_, i) => ({
        name: `Pooled part ${i}`,
        partNumber: `POOL-${i}`,
        category: "Other" as const,
        img: "/images/products/oil-filter.svg",
        priceCents: 500,
        minimumOrder: 1,
        availableQuantity: 1_000,
        shortDescription: "A part ordered through PgBouncer",
        warrantyMonths: 12,
        creatorEmail: "admin@example.com",
      })),
    )
    .returning();
  // Sign-ups (a password hash each) a few at a time: the orders are what is measured.
  const customers = await signedUpHttpCustomers(40, "pooled", (i) => (i % 2 ? a!.url : b!.url), 8);
  const ids = made.map((p) => p.id);
  const startedAt = Date.now();
  const statuses = await Promise.all(
    customers.flatMap((c) =>
      made.map(async (product) => {
        const res = await c.request(
          "POST",
          "/api/orders",
          orderToTestAddress(product.id, 1, "1 Pool Street"),
        );
        return res.status === 201 ? 201 : `${res.status} ${await res.text()}`;
      }),
    ),
  );
  const seconds = (Date.now() - startedAt) / 1000;
  const failed = statuses.filter((s) => s !== 201);
  console.log(
    `through PgBouncer (transaction mode): ${statuses.length} orders from 2 processes in ` +
      `${seconds.toFixed(1)} s, ${statuses.length - failed.length} placed, ${failed.length} failed`,
  );
  expect(failed).toEqual([]);
  expect(await direct.db.$count(orderItems, inArray(orderItems.productId, ids))).toBe(400);
  const rows = await direct.db.select().from(products).where(inArray(products.id, ids));
  expect(rows.map((p) => p.availableQuantity)).toEqual(ids.map(() => 1_000 - 40));
}, 180_000);

test("an edit through one process is seen at once by the other (cache invalidation)", async () => {
  const [a, b] = servers;
  const [product] = await direct.db.select().from(products).limit(1);
  const adminUser = new HttpCustomer(a!.url, "admin@example.com", "admin123");
  const signIn = await adminUser.request("POST", "/api/auth/sign-in/email", {
    email: "admin@example.com",
    password: "admin123",
  });
  expect(signIn.status).toBe(200);
  const read = async () =>
    ((await (await fetch(`${b!.url}/api/products/${product!.id}`)).json()) as { price: number })
      .price;
  // Twice, so the second answer can come from b's cache.
  expect(await read()).toBe(product!.priceCents / 100);
  expect(await read()).toBe(product!.priceCents / 100);
  const newPrice = product!.priceCents / 100 + 7;
  const edit = await adminUser.request("PATCH", `/api/products/${product!.id}`, {
    price: newPrice,
  });
  expect(edit.status).toBe(200);
  const editedAt = Date.now();
  let seen = await read();
  while (seen !== newPrice && Date.now() - editedAt < 3_000) seen = await read();
  console.log(`the other process showed the new price after ${Date.now() - editedAt} ms`);
  expect(seen).toBe(newPrice);
});
