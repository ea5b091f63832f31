import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { MAIL_QUEUE, eventUuid } from "../../src/server/mail/mailer";
import { HOLD_SWEEP_QUEUE } from "../../src/server/orders/hold-sweeper";
import { orderToTestAddress, shipsToTestAddress } from "../support/destination";
import { insertProduct } from "../support/factories";
import { type HttpCustomer, signedUpHttpCustomers } from "../support/http-customer";
import { startNodesNginx, type Nginx } from "../support/nginx";
import { startPgBouncer, type PgBouncer } from "../support/pgbouncer";
import {
  ORDERING_AT_LOAD,
  startServerProcess,
  type ServerProcess,
} from "../support/server-process";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { startTestSmtp, type TestSmtp } from "../support/test-smtp";

/**
 * Issue 55 item 2, docs/operations.md "From one node to several": three store nodes (the
 * compiled server, as `npm start` runs it) behind Debian's nginx configured by the recipe's
 * template (deploy/nginx/), all on one PostgreSQL through PgBouncer in transaction mode, sending
 * mail to one SMTP server. Customers place orders through nginx, retrying with an
 * Idempotency-Key, while one node is killed with SIGKILL: no acknowledged order is lost, none is
 * placed twice, the catalog keeps answering, and each order's email is queued once and sent (a
 * second time only if the killed node was sending it as it died: at-least-once, one Message-ID).
 */
const root = path.resolve(import.meta.dirname, "../..");
const CUSTOMERS = 12;
const PRODUCTS = 10;
/** The node is killed once this many orders were acknowledged (of CUSTOMERS × PRODUCTS). */
const KILL_AFTER = 40;

let database: TestDatabase;
let bouncer: PgBouncer;
let smtp: TestSmtp;
let nginx: Nginx;
let nodes: ServerProcess[] = [];
let dataDir: string;

beforeAll(async () => {
  // The nodes run the build (dist/server), as in production: started in about a second each,
  // where three tsx compilations at once take a minute on a busy machine.
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { cwd: root, stdio: "ignore" });
  database = await createTestDatabase();
  await shipsToTestAddress(database.db);
  bouncer = await startPgBouncer(inject("adminDatabaseUrl"), 20);
  smtp = await startTestSmtp({});
  // One DATA_DIR for the three (uploads): fine on one machine; several machines need
  // STORAGE_DRIVER=s3 (docs/storage.md).
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-nodes-data-"));
  const env = {
    ...ORDERING_AT_LOAD,
    DATABASE_URL: bouncer.pooled(database.directUrl),
    DATABASE_DIRECT_URL: database.directUrl,
    DATA_DIR: dataDir,
    BETTER_AUTH_SECRET: "shared-secret-of-all-nodes-0123456789abcdef",
    TRUST_PROXY: "127.0.0.1",
    SMTP_URL: smtp.url,
    DEMO_IDENTITY_PROVIDER: "false",
    CATALOG_PING_SECONDS: "1",
    LOG_LEVEL: "warn",
    // A message a killed node was sending is retried 1 s after its job expires, not 30.
    MAIL_RETRY_DELAY_SECONDS: "1",
    // The unpaid orders' sweep every 2 s on whichever node: many runs to check for overlap.
    HOLD_SWEEP_SECONDS: "2",
    // A killed node's claims of Idempotency-Keys count as abandoned 30 s after this deadline
    // (docs/idempotency.md): 10 s rather than the test processes' 30.
    ORDER_TIMEOUT_SECONDS: "10",
    // About surviving a node's death, not capacity: a busy 2-core machine's waits are not
    // refusals here (as in pgbouncer.test.ts).
    DB_CONNECT_TIMEOUT_SECONDS: "60",
    DB_LOCK_TIMEOUT_SECONDS: "20",
    REQUEST_TIMEOUT_SECONDS: "60",
    DB_QUEUE_MAX: "100000",
  };
  const started = await Promise.allSettled(
    [0, 1, 2].map(() => startServerProcess(env, [], { compiled: true })),
  );
  nodes = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  expect(started.filter((s) => s.status === "rejected")).toEqual([]);
  nginx = await startNodesNginx(nodes.map((n) => new URL(n.url).host));
}, 180_000);

afterAll(async () => {
  await nginx?.stop();
  await Promise.all(nodes.map((n) => n.stop()));
  await bouncer?.stop();
  await smtp?.stop();
  await database?.close();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

/** What became of one customer's order of one product. */
interface Outcome {
  customer: HttpCustomer;
  productId: string;
  /** The order, as the 201 said or (after "outcome unknown") the customer's orders showed. */
  orderId?: string;
  /** Every key it was sent with, in order (a new one only after "outcome unknown"). */
  keys: string[];
  acknowledged: boolean;
  /** Answers other than 201 on the way (status and error code). */
  seen: string[];
  failure?: string;
}

/**
 * A client that does not know whether its order went through sends it again with the same key:
 * after no answer at all, a 502/504 from nginx (the node died with the request), a 503, or
 * 409 "still being processed". After 409 "outcome unknown" (its key was left running by a node
 * that died) it looks at its orders, as the message says, and uses a new key only if the order
 * is not there. Any other answer is a failure of the test.
 */
async function orderOnce(customer: HttpCustomer, productId: string): Promise<Outcome> {
  const outcome: Outcome = {
    customer,
    productId,
    keys: [randomUUID()],
    acknowledged: false,
    seen: [],
  };
  const body = orderToTestAddress(productId, 1, "55 Node Street");
  for (let attempt = 0; attempt < 200; attempt++) {
    const key = outcome.keys.at(-1)!;
    let res: Response;
    try {
      res = await customer.request("POST", "/api/orders", body, {
        headers: { "idempotency-key": key },
      });
    } catch (err) {
      outcome.seen.push(`no answer (${(err as Error).message})`);
      continue;
    }
    const text = await res.text();
    if (res.status === 201) {
      outcome.orderId = (JSON.parse(text) as { order: { _id: string } }).order._id;
      outcome.acknowledged = true;
      return outcome;
    }
    const code =
      res.status >= 400 && text.startsWith("{")
        ? (JSON.parse(text) as { error?: string }).error
        : undefined;
    outcome.seen.push(`${res.status} ${code ?? ""}`.trim());
    if ([502, 503, 504].includes(res.status)) continue;
    if (res.status === 409 && code === "idempotency_key_in_use") continue;
    if (res.status === 409 && code === "idempotency_outcome_unknown") {
      const mine = await customer.json<{ _id: string; productId: string | null }[]>(
        "GET",
        "/api/orders",
      );
      const found =
        mine.status === 200 ? mine.body.find((o) => o.productId === productId) : undefined;
      if (found) {
        outcome.orderId = found._id;
        return outcome;
      }
      outcome.keys.push(randomUUID());
      continue;
    }
    outcome.failure = `${res.status} ${text}`;
    return outcome;
  }
  outcome.failure = `no answer after 200 attempts: ${outcome.seen.slice(-5).join(", ")}`;
  return outcome;
}

test("three nodes behind nginx: a node killed under order load loses no order, places none twice, and each email goes (twice only if the node died sending it)", async () => {
  const made = await Promise.all(
    Array.from({ length: PRODUCTS }, () =>
      insertProduct(database.db, { availableQuantity: 1_000, minimumOrder: 1 }),
    ),
  );
  const customers = await signedUpHttpCustomers(CUSTOMERS, "several-nodes", nginx.url, 4);

  // The node killed once KILL_AFTER orders were acknowledged (a condition, not a time).
  const victim = nodes[1]!;
  let acknowledged = 0;
  let reachedKillPoint!: () => void;
  const killPoint = new Promise<void>((resolve) => (reachedKillPoint = resolve));
  let killTime = 0;
  const killed = killPoint.then(async () => {
    killTime = Date.now();
    const exited = new Promise((resolve) => victim.process.once("exit", resolve));
    victim.process.kill("SIGKILL");
    await exited;
    return acknowledged;
  });
  // Each customer is one client ordering the products one after another, all at once.
  const outcomes = (
    await Promise.all(
      customers.map(async (customer) => {
        const mine: Outcome[] = [];
        for (const product of made) {
          const o = await orderOnce(customer, product.id);
          mine.push(o);
          if (o.orderId && ++acknowledged === KILL_AFTER) reachedKillPoint();
        }
        return mine;
      }),
    )
  ).flat();
  const killedAt = await killed;

  expect(outcomes.filter((o) => o.failure).map((o) => o.failure)).toEqual([]);

  // No acknowledged order lost: every 201's order is in the database.
  const acked = outcomes.filter((o) => o.acknowledged).map((o) => o.orderId!);
  const placed = await database.pool.query<{
    order_id: string;
    user_id: string;
    product_id: string;
  }>(
    `select o.id::text as order_id, o.user_id, i.product_id::text as product_id
       from orders o join order_items i on i.order_id = o.id
      where i.product_id::text = any($1::text[])`,
    [made.map((p) => p.id)],
  );
  const inDatabase = new Set(placed.rows.map((r) => r.order_id));
  expect(acked.filter((id) => !inDatabase.has(id))).toEqual([]);

  // None placed twice: one order per customer and product, the one its client was told of.
  expect(placed.rows.length).toBe(CUSTOMERS * PRODUCTS);
  expect(new Set(placed.rows.map((r) => `${r.user_id} ${r.product_id}`)).size).toBe(
    CUSTOMERS * PRODUCTS,
  );
  expect(new Set(outcomes.map((o) => o.orderId)).size).toBe(CUSTOMERS * PRODUCTS);
  expect(outcomes.every((o) => inDatabase.has(o.orderId!))).toBe(true);
  // One order per key: each key answered 201 names its own order, and a key replayed names the same.
  const keys = await database.pool.query<{ key: string; state: string; response: string | null }>(
    "select key, state, response from idempotency_keys where key = any($1::text[])",
    [outcomes.flatMap((o) => o.keys)],
  );
  const orderOfKey = keys.rows
    .filter((k) => k.state === "done" && k.response?.includes('"order"'))
    .map((k) => (JSON.parse(k.response!) as { order: { _id: string } }).order._id);
  expect(new Set(orderOfKey).size).toBe(orderOfKey.length);
  for (const o of outcomes.filter((x) => x.acknowledged)) {
    const row = keys.rows.find((k) => k.key === o.keys.at(-1));
    expect(row?.state).toBe("done");
    expect(row?.response).toContain(o.orderId!);
  }

  // Pages keep answering through nginx: the catalog, as many times as there are nodes and more,
  // so the dead node's turn comes.
  for (let i = 0; i < 6; i++) {
    const res = await fetch(`${nginx.url}/api/products?limit=24`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBeGreaterThan(0);
  }

  // Each job runs once: one "order placed" message per order in the outbox (pg-boss's mail
  // queue), each sent once through SMTP by whichever node took it. A message the killed node had
  // taken (each node's 2 senders hold one each) is handed out again once its job has expired
  // (mailExpireSeconds: 120 s after it was taken) and pg-boss's maintenance, every 120 s on one
  // of the nodes, has noticed: up to about 4 minutes after the kill.
  const jobs = await database.pool.query<{ id: string; order_id: string }>(
    `select j.id::text as id, p.order_id
       from unnest($1::text[]) as p(order_id)
       join pgboss.job j on j.name = $2 and j.data::text like '%' || p.order_id || '%'`,
    [[...inDatabase], MAIL_QUEUE],
  );
  expect(jobs.rows.length).toBe(CUSTOMERS * PRODUCTS);
  expect(new Set(jobs.rows.map((j) => j.order_id)).size).toBe(CUSTOMERS * PRODUCTS);
  // The message's job id is its event's ("order-placed:<id>"): the same event queues it once.
  expect(jobs.rows.every((j) => j.id === eventUuid(`order-placed:${j.order_id}`))).toBe(true);
  const messageIds = jobs.rows.map((j) => `<${j.id}@partsworks.mail>`);
  await expect
    .poll(() => messageIds.filter((m) => !smtp.accepted.includes(m)).length, {
      timeout: 300_000,
      interval: 500,
    })
    .toBe(0);
  const allSentAfter = Math.round((Date.now() - killTime) / 1000);
  const sent = smtp.accepted.filter((m) => messageIds.includes(m));
  expect(new Set(sent).size).toBe(messageIds.length);
  // Sending is at-least-once (mail/mailer.ts markSent): a message SMTP accepted from the killed
  // node just before it died, its job not yet marked, goes again from another node with the same
  // Message-ID. Only those can: one per sender of the killed node at most.
  const twice = sent.length - new Set(sent).size;
  expect(twice).toBeLessThanOrEqual(2);

  // The recurring sweeps run on one node at a time: the unpaid orders' sweep ran many times over
  // the three nodes (then two), never two runs at once. (A quick run may end before the fourth:
  // the two nodes left keep sweeping every 2 s, so the count is waited for.)
  const completedSweeps = () =>
    database.pool.query<{ started: Date; completed: Date }>(
      `select started_on as started, completed_on as completed from pgboss.job
        where name = $1 and state = 'completed' order by started_on`,
      [HOLD_SWEEP_QUEUE],
    );
  await expect
    .poll(async () => (await completedSweeps()).rows.length, { timeout: 30_000, interval: 500 })
    .toBeGreaterThan(3);
  const sweeps = await completedSweeps();
  const overlapping = sweeps.rows.filter(
    (r, i) => i > 0 && r.started < sweeps.rows[i - 1]!.completed,
  );
  expect(overlapping).toEqual([]);

  // What nginx did: requests it sent on to another node after one failed.
  const log = await nginx.accessLog();
  const failedOver = log.split("\n").filter((l) => /upstream=\S+, /.test(l)).length;
  const retried = outcomes.filter((o) => o.seen.length > 0);
  const seen = retried.flatMap((o) => o.seen);
  const count = (s: string) => seen.filter((x) => x.startsWith(s)).length;
  console.log(
    `three nodes behind nginx, node ${new URL(victim.url).port} killed after ${killedAt} of ` +
      `${CUSTOMERS * PRODUCTS} orders: all placed once; ${retried.length} orders sent again ` +
      `(502: ${count("502")}, 504: ${count("504")}, 503: ${count("503")}, in use: ` +
      `${count("409 idempotency_key_in_use")}, outcome unknown: ` +
      `${count("409 idempotency_outcome_unknown")}, no answer: ${count("no answer")}); ` +
      `${outcomes.filter((o) => o.keys.length > 1).length} needed a new key; nginx passed ` +
      `${failedOver} requests on to another node; ${messageIds.length} emails sent (${twice} twice), the last ${allSentAfter} s after the kill; ` +
      `${sweeps.rows.length} runs of the hold sweep, none two at once`,
  );
}, 600_000);
