import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { recordWebhookEvent } from "../../src/server/webhooks/outbox";
import { newWebhookSecret } from "../../src/server/webhooks/signing";
import { webhookEndpoints } from "../../src/server/webhooks/tables";
import { shipsToTestAddress, TEST_SHIP_TO } from "../support/destination";
import { insertProduct } from "../support/factories";
import { HttpCustomer } from "../support/http-customer";
import { eventually } from "../support/mailbox";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { testDatabaseForTests } from "../support/test-database";
import { tempFolderForTests } from "../support/temp-folder";

// Webhooks against a real store process (docs/webhooks.md): an endpoint that never answers does
// not delay an order (the order is answered while the endpoint still holds the event), and an
// event is sent only once its transaction commits, never when it rolls back.

const external = testDatabaseForTests(shipsToTestAddress);
const dataDir = tempFolderForTests("store-webhooks-");
let server: ServerProcess;
let customer: HttpCustomer;
const received: { type: string; data: Record<string, unknown> }[] = [];
const held: http.ServerResponse[] = [];
/** While true, the receiver holds every request unanswered (a stuck endpoint). */
let stuck = true;
const receiver = http.createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (c: string) => (body += c));
  req.on("end", () => {
    received.push(JSON.parse(body) as (typeof received)[number]);
    if (stuck) held.push(res);
    else res.writeHead(204).end();
  });
});

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  const { port } = receiver.address() as AddressInfo;
  await external.db.insert(webhookEndpoints).values({
    url: `http://127.0.0.1:${port}/stuck`,
    eventTypes: ["order.placed", "product.updated"],
    secret: newWebhookSecret(),
  });
  server = await startServerProcess({
    DATABASE_URL: external.url,
    DATA_DIR: dataDir,
    SEED_DEMO_DATA: "false",
    LOG_LEVEL: "error",
  });
  customer = new HttpCustomer(server.url, "webhooks-system@example.com");
  await customer.signUp();
}, 120_000);
afterAll(async () => {
  for (const res of held) res.writeHead(204).end();
  receiver.closeAllConnections();
  await new Promise<void>((r) => receiver.close(() => r()));
  await server?.stop();
});

test("an endpoint that never answers does not delay an order", async () => {
  const product = await insertProduct(external.db);
  const started = performance.now();
  const placed = await customer.json<{ order: { _id: string } }>("POST", "/api/orders", {
    productId: product.id,
    orderQty: 2,
    phonrNo: "5550100",
    Address: "2 Hook Lane",
    shipTo: TEST_SHIP_TO,
  });
  const took = performance.now() - started;
  expect(placed.status).toBe(201);
  // The endpoint got the event after the order's answer and is holding it still.
  const event = await eventually(
    async () => received.find((e) => e.data.orderId === placed.body.order._id),
    "order.placed at the endpoint",
  );
  expect(event.type).toBe("order.placed");
  expect(held.length).toBeGreaterThan(0);
  // A placement on this machine takes milliseconds; the endpoint's 10 s timeout is not in it.
  expect(took).toBeLessThan(5_000);
  stuck = false;
  for (const res of held.splice(0)) res.writeHead(204).end();
});

test("an event is sent after its commit, and never for a rolled-back transaction", async () => {
  stuck = false;
  const db = external.db;
  const ofProduct = (id: string) => received.filter((e) => e.data.productId === id);
  await expect(
    db.transaction(async (tx) => {
      await recordWebhookEvent(tx, { type: "product.updated", data: { productId: "rolled-back" } });
      throw new Error("roll back");
    }),
  ).rejects.toThrow("roll back");
  let commit: (() => void) | undefined;
  const open = db.transaction(async (tx) => {
    await recordWebhookEvent(tx, { type: "product.updated", data: { productId: "late" } });
    await new Promise<void>((r) => (commit = r));
  });
  const release = await eventually(async () => commit, "the transaction open");
  // A marker committed after them: once it has arrived the store has sent all it could see.
  await db.transaction((tx) =>
    recordWebhookEvent(tx, { type: "product.updated", data: { productId: "marker" } }),
  );
  await eventually(async () => ofProduct("marker")[0], "the marker");
  expect(ofProduct("late")).toEqual([]);
  release();
  await open;
  await eventually(async () => ofProduct("late")[0], "the event once committed");
  expect(ofProduct("rolled-back")).toEqual([]);
});
