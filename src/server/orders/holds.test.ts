import { and, eq, sql } from "drizzle-orm";
import { expect, test } from "vitest";
import {
  signUp,
  signUpTrusted,
  signUpVerified,
  type TestAccount,
} from "../../../tests/support/accounts";
import { TEST_SHIP_TO } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { payWithTestCard } from "../../../tests/support/payments";
import { demoProducts } from "../catalog/demo-products";
import { orderItems, orders } from "./tables";
import { products } from "../catalog/tables";
import { appForTests } from "../../../tests/support/store";

/** Unpaid orders hold stock: one account cannot take it off sale (the limits of decision 006). */
// The store's default limits, the per-minute one and the new customers' cap included.
const { t, call } = appForTests({
  env: {
    ORDERS_PER_MINUTE: "10",
    HOLD_NEW_CUSTOMER_SHARE: "0.2",
    AUTH_RATE_LIMIT_PER_IP: "1000",
  },
  shipsToTestAddress: true,
});

const delivery = { phonrNo: "5550100", Address: "1 Dock Road", shipTo: TEST_SHIP_TO };
const order = (who: TestAccount, productId: string, orderQty: number) =>
  call(who, "POST", "/api/orders", { productId, orderQty, ...delivery });

test("the measured attack fails: 14 orders for the whole stock of every demo product hold nothing", async () => {
  const catalog = await Promise.all(
    demoProducts.map((p) =>
      insertProduct(t.database.db, {
        name: p.name,
        priceCents: p.priceCents,
        minimumOrder: p.minimumOrder,
        availableQuantity: p.availableQuantity,
      }),
    ),
  );
  const initial = catalog.reduce((n, p) => n + p.availableQuantity, 0);
  const attacker = await signUp(t.app);

  const started = Date.now();
  const answers = await Promise.all(catalog.map((p) => order(attacker, p.id, p.availableQuantity)));
  const statuses = answers.map((a) => a.statusCode);
  console.log(
    `hold attack: ${answers.length} requests in ${Date.now() - started} ms answered ${statuses.join(",")}`,
  );
  // Each is refused: more than the account's share of the stock, or more orders than a minute allows.
  for (const a of answers) {
    expect([422, 429]).toContain(a.statusCode);
    expect(a.json().message).toMatch(/^(You can hold at most|You are placing orders too quickly)/);
  }
  const rows = await t.database.db.select().from(products);
  const left = rows
    .filter((r) => catalog.some((p) => p.id === r.id))
    .reduce((n, r) => n + r.availableQuantity, 0);
  expect(left).toBe(initial);

  // Another garage still orders the minimum of every part, in one checkout.
  const garage = await signUp(t.app);
  for (const p of catalog) {
    await call(garage, "PUT", `/api/cart/items/${p.id}`, { qty: p.minimumOrder });
  }
  const cart = (await call(garage, "GET", "/api/cart")).json();
  expect(cart.canCheckout).toBe(true);
  const placed = await call(garage, "POST", "/api/checkout", {
    ...delivery,
    expectedTotal: cart.subtotal,
  });
  expect(placed.statusCode).toBe(201);
});

test("one line may hold at most half the stock on sale (small lines always pass), and all unpaid orders at most 25,000", async () => {
  const me = await signUpTrusted(t);
  const big = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 400 });
  const small = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 6 });
  const refused = await order(me, big.id, 201);
  expect(refused.statusCode).toBe(422);
  expect(refused.json().message).toBe(
    "You can hold at most 200 of this part in unpaid orders; pay for your orders or contact us for more",
  );
  expect((await order(me, big.id, 200)).statusCode).toBe(201);
  // An honest garage taking the last few of a part is not held back.
  expect((await order(me, small.id, 6)).statusCode).toBe(201);

  const other = await signUp(t.app);
  const dear = await insertProduct(t.database.db, {
    priceCents: 20_000_00,
    minimumOrder: 1,
    availableQuantity: 10,
  });
  expect((await order(other, dear.id, 1)).statusCode).toBe(201);
  const cheap = await insertProduct(t.database.db, { priceCents: 6_000_00, minimumOrder: 1 });
  const overValue = await order(other, cheap.id, 1);
  expect(overValue.statusCode).toBe(422);
  expect(overValue.json().message).toBe(
    "Unpaid orders may hold at most $25,000.00 of stock; pay for an order before placing another",
  );
});

test("an account places at most 10 orders a minute", async () => {
  const me = await signUp(t.app);
  const parts = await Promise.all(
    Array.from({ length: 11 }, () => insertProduct(t.database.db, { minimumOrder: 1 })),
  );
  const statuses: number[] = [];
  for (const p of parts) statuses.push((await order(me, p.id, 1)).statusCode);
  expect(statuses).toEqual([...Array<number>(10).fill(201), 429]);
});

test("deleting and re-ordering does not renew the hold; paying does", async () => {
  const me = await signUp(t.app);
  const p = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 100 });
  const first = (await order(me, p.id, 2)).json().order;
  await call(me, "DELETE", `/api/orders/${first._id}`);
  const second = (await order(me, p.id, 2)).json().order;
  expect(second.holdExpiresAt).toBe(first.holdExpiresAt);

  // Paid: the next order of the part gets a hold of its own.
  const { paid } = await payWithTestCard(t.app, me, second._id);
  expect(paid.json().status).toBe("paid");
  const third = (await order(me, p.id, 2)).json().order;
  expect(Date.parse(third.holdExpiresAt)).toBeGreaterThan(Date.parse(first.holdExpiresAt));
  const [row] = await t.database.db.select().from(products).where(eq(products.id, p.id));
  expect(row!.availableQuantity).toBe(96);
});

test("new accounts, verified or not, together hold at most 20 % of a product, for 30 minutes (issues 24 and 49)", async () => {
  // Measured on 75cca6d: six fresh accounts, each ordering the half of what was left that its
  // own share allowed, held 2,165 of 2,200 units for 48 hours. Measured on e34cb8a: eight
  // accounts verified by script (a catch-all mailbox) took a part off sale for 48 hours.
  const pads = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 2200 });
  const answers: number[] = [];
  for (let i = 0; i < 6; i += 1) {
    const attacker = i % 2 === 0 ? await signUpVerified(t) : await signUp(t.app);
    const [row] = await t.database.db.select().from(products).where(eq(products.id, pads.id));
    // Half of what is left: what the account's own share allows.
    const res = await order(attacker, pads.id, Math.floor(row!.availableQuantity / 2));
    answers.push(res.statusCode);
    if (res.statusCode === 201) {
      const hold = Date.parse(res.json().order.holdExpiresAt) - Date.now();
      expect(hold).toBeLessThanOrEqual(30 * 60_000);
    } else {
      expect(res.json().message).toMatch(/^Accounts that have not paid for an order yet can/);
    }
  }
  // And at once: twenty more fresh accounts asking for what is left of the room together.
  const crowd = await Promise.all(Array.from({ length: 20 }, () => signUp(t.app)));
  const crowdAnswers = (await Promise.all(crowd.map((a) => order(a, pads.id, 40)))).map(
    (r) => r.statusCode,
  );
  const [held] = await t.database.db
    .select({ units: sql<number>`coalesce(sum(${orderItems.qty}), 0)::int` })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orderItems.productId, pads.id), eq(orders.status, "unpaid")));
  console.log(`fair holds: answers ${answers.join(",")}; new accounts hold ${held!.units} of 2200`);
  expect(held!.units).toBeLessThanOrEqual(0.2 * 2200);
  expect(crowdAnswers).toContain(201);
  expect(held!.units).toBeGreaterThan(0.2 * 2200 - 40);
  // A garage that has paid for an order before still orders its share of what is on sale, held
  // for the full 48 hours.
  const garage = await signUpTrusted(t);
  const res = await order(garage, pads.id, 500);
  expect(res.statusCode).toBe(201);
  expect(Date.parse(res.json().order.holdExpiresAt) - Date.now()).toBeGreaterThan(47 * 3_600_000);
});
