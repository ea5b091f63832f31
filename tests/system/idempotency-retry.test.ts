import { once } from "node:events";
import net from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { products } from "../../src/server/catalog/tables";
import { idempotencyKeys } from "../../src/server/idempotency/tables";
import { orderItems } from "../../src/server/orders/tables";
import { orderToTestAddress, shipsToTestAddress } from "../support/destination";
import { insertProduct } from "../support/factories";
import { HttpCustomer } from "../support/http-customer";
import { lockProductRow } from "../support/row-lock";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { testDatabaseForTests } from "../support/test-database";
import { tempFolderForTests } from "../support/temp-folder";

// Issue 51: a client that retries an order after its connection died ordered twice. Here the
// order is sent with an Idempotency-Key over a connection of its own, which is cut before the
// client has its answer: while the store is still placing it, or once the store has placed it
// (the answer lost on the way). The client then sends it again with the same key, not knowing
// whether the first went through. Exactly one order exists, and the client is told which.

const external = testDatabaseForTests(shipsToTestAddress);
const dataDir = tempFolderForTests("store-idempotency-");
let server: ServerProcess;
let customer: HttpCustomer;
beforeAll(async () => {
  server = await startServerProcess({
    DATABASE_URL: external.url,
    DATA_DIR: dataDir,
    SEED_DEMO_DATA: "false",
    LOG_LEVEL: "error",
    // A held row is waited for as long as the test holds it.
    DB_LOCK_TIMEOUT_SECONDS: "60",
  });
  customer = new HttpCustomer(server.url, "idempotency-retry@example.com");
  await customer.signUp();
}, 120_000);
afterAll(() => server?.stop());

const orderBody = (productId: string) => orderToTestAddress(productId, 2, "51 Retry Road");

const stateOfKey = async (key: string) =>
  (
    await external.db
      .select({ state: idempotencyKeys.state })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, key))
  )[0]?.state ?? "none";

/**
 * Sends the order with `key` on a connection of its own and cuts it, unread, once the key is in
 * `state` ("running": the store is placing it; "done": it has placed it and sent its answer).
 */
async function sendAndCut(order: object, key: string, state: "running" | "done") {
  const body = JSON.stringify(order);
  const { hostname, port, host } = new URL(server.url);
  const socket = net.connect(Number(port), hostname);
  await once(socket, "connect");
  // What arrives is never read: the client does not learn the outcome.
  socket.pause();
  socket.write(
    [
      "POST /api/orders HTTP/1.1",
      `Host: ${host}`,
      "Content-Type: application/json",
      `Content-Length: ${Buffer.byteLength(body)}`,
      `Cookie: ${customer.cookie}`,
      `Idempotency-Key: ${key}`,
      "",
      body,
    ].join("\r\n"),
  );
  await expect.poll(() => stateOfKey(key), { timeout: 20_000 }).toBe(state);
  socket.destroy();
}

/** The retry with the key, tried again while the store says the first is still being processed. */
async function retryUntilAnswered(body: object, key: string) {
  const send = () =>
    customer.request("POST", "/api/orders", body, { headers: { "idempotency-key": key } });
  let res = await send();
  await expect
    .poll(
      async () => {
        if (res.status === 409) res = await send();
        return res.status;
      },
      { timeout: 30_000 },
    )
    .toBe(201);
  const { order } = (await res.json()) as { order: { _id: string } };
  return { orderId: order._id, replayed: res.headers.get("idempotent-replayed") === "true" };
}

/** The orders with a line of the product, and its stock. */
async function placedOf(productId: string) {
  const lines = await external.db
    .select({ orderId: orderItems.orderId })
    .from(orderItems)
    .where(eq(orderItems.productId, productId));
  const [row] = await external.db
    .select({ n: products.availableQuantity })
    .from(products)
    .where(eq(products.id, productId));
  return { orderIds: lines.map((l) => l.orderId), stock: row!.n };
}

test("cut while the store places it, then sent again with its key: placed once", async () => {
  const product = await insertProduct(external.db, { availableQuantity: 100, minimumOrder: 1 });
  const body = orderBody(product.id);
  const key = "attempt-cut-while-placing";
  // The product's row held (as an admin's long edit would): the placement waits for it.
  const lock = await lockProductRow(external.url, product.id);
  await sendAndCut(body, key, "running");
  // The retry, sent at once, may find the first still placing (it waits for it) or over.
  const retried = retryUntilAnswered(body, key);
  await lock.release();
  const { orderId, replayed } = await retried;
  expect(await placedOf(product.id)).toEqual({ orderIds: [orderId], stock: 98 });
  const listed = await customer.json<{ _id: string }[]>("GET", "/api/orders");
  expect(listed.body.map((o) => o._id)).toContain(orderId);
  console.log(
    `cut while placing: ${replayed ? "the first placed it before it noticed its client had gone; the retry was answered that order" : "the first placed nothing once its client had gone; the retry placed the order"}`,
  );
}, 120_000);

test("cut after the store placed it (the answer lost), then sent again with its key: the same order, not a second", async () => {
  const product = await insertProduct(external.db, { availableQuantity: 100, minimumOrder: 1 });
  const body = orderBody(product.id);
  const key = "attempt-answer-lost";
  await sendAndCut(body, key, "done");
  const { orderId, replayed } = await retryUntilAnswered(body, key);
  expect(replayed).toBe(true);
  expect(await placedOf(product.id)).toEqual({ orderIds: [orderId], stock: 98 });
  // Without the key, the same order again is a second placement (refused here: one unpaid order
  // of a part at a time), not the first one's answer.
  const plain = await customer.json<{ message: string }>("POST", "/api/orders", body);
  expect(plain.status).toBe(409);
  expect(await placedOf(product.id)).toEqual({ orderIds: [orderId], stock: 98 });
}, 120_000);
