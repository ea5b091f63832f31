import { eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { signUp, signUpTrusted, type TestAccount } from "../../../tests/support/accounts";
import { TEST_SHIP_TO } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { storeForTests } from "../../../tests/support/store";
import { expectTooManyRequests } from "../../../tests/support/too-many";
import {
  orderLimitMessages,
  orderLimitsSchema,
  type OrderLimitsInput,
} from "../../contract/order-limits";
import { holdMessages } from "../../contract/orders";
import { adminAuditLog } from "../audit/tables";
import { startTestChangeBus } from "../../../tests/support/change-bus";
import { ConfigError, loadConfig } from "../config";
import { createOrderLimits, limitsOf, rulesOf } from "./limits";

/**
 * The order limits an admin sets on Manage All Orders (docs/ordering.md "Holds that cannot be
 * abused"): until saved, the environment's; once saved, every placement's from then on, in this
 * process at once and in the others once they hear of it.
 */

const HOUR = 3_600_000;
const MINUTE = 60_000;

const { t, call, admin, customer } = storeForTests({
  admin: "limits-admin@example.com",
  shipsToTestAddress: true,
  customers: { customer: "limits-customer@example.com" },
  env: {
    ORDER_HOLD_HOURS: "48",
    ORDERS_PER_MINUTE: "10",
    HOLD_NEW_CUSTOMER_SHARE: "1",
    QUICK_ORDER_PER_MINUTE: "60",
  },
});

const ENVIRONMENT: OrderLimitsInput = {
  holdHours: 48,
  newCustomerHoldMinutes: 30,
  holdWarningHours: 12,
  maxSharePercent: 50,
  freeUnits: 10,
  newCustomerSharePercent: 100,
  maxHeldValue: 25_000,
  ordersPerMinute: 10,
  quickOrderPerMinute: 60,
};

const delivery = { phonrNo: "5550100", Address: "1 Dock Road", shipTo: TEST_SHIP_TO };

/** One unit of a fresh part: the order, and how long from now its stock is held. */
async function orderOne(who: TestAccount) {
  const part = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 50 });
  const placed = await call(who, "POST", "/api/orders", {
    productId: part.id,
    orderQty: 1,
    ...delivery,
  });
  const heldFor =
    placed.statusCode === 201 ? Date.parse(placed.json().order.holdExpiresAt) - Date.now() : null;
  return { placed, heldFor };
}

const save = (limits: OrderLimitsInput) => call(admin, "PUT", "/api/holds/limits", limits);

test("the environment's limits until an admin saves others; saved ones decide the next order, audited", async () => {
  const before = await call(admin, "GET", "/api/holds/limits");
  expect(before.statusCode).toBe(200);
  expect(before.json()).toEqual({ ...ENVIRONMENT, updatedAt: null });

  const trusted = await signUpTrusted(t);
  const first = await orderOne(trusted);
  expect(first.placed.statusCode, first.placed.body).toBe(201);
  expect(first.heldFor).toBeGreaterThan(47 * HOUR);

  const saved = await save({
    ...ENVIRONMENT,
    holdHours: 2,
    newCustomerHoldMinutes: 5,
    holdWarningHours: 3,
  });
  expect(saved.statusCode, saved.body).toBe(200);
  expect(saved.json()).toMatchObject({ holdHours: 2, newCustomerHoldMinutes: 5 });
  expect(saved.json().updatedAt).not.toBeNull();
  expect((await call(admin, "GET", "/api/holds/limits")).json()).toEqual(saved.json());

  // A trusted customer's next order holds for 2 hours, a new customer's for 5 minutes.
  const second = await orderOne(trusted);
  expect(second.heldFor).toBeGreaterThan(2 * HOUR - MINUTE);
  expect(second.heldFor).toBeLessThanOrEqual(2 * HOUR);
  const fresh = await orderOne(await signUp(t.app));
  expect(fresh.heldFor).toBeGreaterThan(4 * MINUTE);
  expect(fresh.heldFor).toBeLessThanOrEqual(5 * MINUTE);
  // Today lists the holds ending within the new reminder.
  const today = await call(admin, "GET", "/api/admin-home");
  expect(today.json().expiringHolds.withinMinutes).toBe(180);
  // The order placed before keeps its hold.
  const kept = await call(trusted, "GET", `/api/orders/${first.placed.json().order._id}`);
  expect(kept.statusCode, kept.body).toBe(200);
  expect(Date.parse(kept.json().holdExpiresAt) - Date.now()).toBeGreaterThan(47 * HOUR);

  const audit = await t.database.db
    .select({ summary: adminAuditLog.summary })
    .from(adminAuditLog)
    .where(eq(adminAuditLog.action, "order.limits"));
  expect(audit.map((a) => a.summary)).toEqual([
    "Set the order limits: unpaid orders hold stock 2 hours (a new customer's 5 minutes), a line 50% of the stock or 10 units, new customers together no cap, one account 25,000 in value; 10 orders and 60 quick-order lookups a minute; the buyer reminded 3 hours before a hold ends",
  ]);
});

test("orders and quick-order lookups a minute are the saved ones", async () => {
  await save({ ...ENVIRONMENT, ordersPerMinute: 1, quickOrderPerMinute: 1 });
  // Three in a row: at least two fall in one minute's window, whenever the test runs.
  const orders = [];
  for (let i = 0; i < 3; i++) orders.push((await orderOne(customer)).placed);
  const refused = orders.filter((o) => o.statusCode === 429);
  expect(refused.length).toBeGreaterThan(0);
  expect(refused[0]!.json().message).toBe(holdMessages.rate);

  const lookups = [];
  for (let i = 0; i < 3; i++) {
    lookups.push(await call(customer, "POST", "/api/quick-order/resolve", { text: "LIM-1 2" }));
  }
  const tooMany = lookups.filter((l) => l.statusCode === 429);
  expect(tooMany.length).toBeGreaterThan(0);
  expectTooManyRequests(tooMany[0]!);
  await save(ENVIRONMENT);
});

test("bad limits are refused in words beside their field and change nothing", async () => {
  const now = (await call(admin, "GET", "/api/holds/limits")).json();
  for (const [change, field] of [
    [{ holdHours: 0 }, "holdHours"],
    [{ holdHours: 1.5 }, "holdHours"],
    [{ newCustomerHoldMinutes: 525_601 }, "newCustomerHoldMinutes"],
    [{ holdWarningHours: 0 }, "holdWarningHours"],
    [{ maxSharePercent: 101 }, "maxSharePercent"],
    [{ freeUnits: -1 }, "freeUnits"],
    [{ newCustomerSharePercent: 0 }, "newCustomerSharePercent"],
    [{ maxHeldValue: 0 }, "maxHeldValue"],
    [{ maxHeldValue: 10.005 }, "maxHeldValue"],
    [{ ordersPerMinute: "10" }, "ordersPerMinute"],
    [{ quickOrderPerMinute: 1_000_001 }, "quickOrderPerMinute"],
  ] as const) {
    const refused = await call(admin, "PUT", "/api/holds/limits", { ...ENVIRONMENT, ...change });
    expect(refused.statusCode, JSON.stringify(change)).toBe(400);
    expect(refused.json().fields?.[field] ?? refused.json().message).toBe(
      orderLimitMessages[field],
    );
  }
  expect(orderLimitMessages.holdHours).toBe(
    "An unpaid order's hold is a whole number of hours from 1 to 8,760",
  );
  expect((await call(admin, "GET", "/api/holds/limits")).json()).toEqual(now);
  // Customers can neither read nor set them.
  expect((await call(customer, "GET", "/api/holds/limits")).statusCode).toBe(403);
  expect((await call(customer, "PUT", "/api/holds/limits", ENVIRONMENT)).statusCode).toBe(403);
});

test("another process keeps the limits in memory and reads them again once a save is heard", async () => {
  const defaults = rulesOf(ENVIRONMENT);
  const here = createOrderLimits(t.database.db, defaults);
  const there = createOrderLimits(t.database.db, defaults);
  const bus = startTestChangeBus(t.database);
  try {
    let reads = 0;
    there.rules.onRead = () => void reads++;
    let listening = false;
    bus.subscribe(["order-limits"], {
      invalidate: () => there.rules.invalidate(),
      setListening: (on) => {
        there.rules.setListening(on);
        listening = on;
      },
    });
    await expect.poll(() => listening, { timeout: 10_000 }).toBe(true);
    const first = await there.rules.get();
    await there.rules.get();
    expect(reads).toBe(1);

    await here.set(
      { ...ENVIRONMENT, holdHours: 7 },
      { id: "x", email: "limits-admin@example.com" },
    );
    await expect
      .poll(async () => (await there.rules.get()).holdMs, { timeout: 10_000 })
      .toBe(7 * HOUR);
    expect(first.holdMs).not.toBe(7 * HOUR);
  } finally {
    await bus.stop();
    await here.set(ENVIRONMENT, { id: "x", email: "limits-admin@example.com" });
  }
});

test("the environment's values read as an admin sets them, and back", () => {
  const fromEnvironment = loadConfig({ HOLD_MAX_SHARE: "0.57", HOLD_NEW_CUSTOMER_SHARE: "0.2" });
  const limits = limitsOf({
    holdMs: fromEnvironment.orderHoldMs,
    limits: fromEnvironment.holdLimits,
    quickOrderPerMinute: fromEnvironment.quickOrderPerMinute,
    holdWarningMs: fromEnvironment.holdWarningMs,
  });
  expect(limits).toEqual({ ...ENVIRONMENT, maxSharePercent: 57, newCustomerSharePercent: 20 });
  expect(rulesOf(limits).limits).toEqual(fromEnvironment.holdLimits);
});

/** The limits an admin's form shows while the environment's are in force. */
const formOf = (config: ReturnType<typeof loadConfig>) =>
  limitsOf({
    holdMs: config.orderHoldMs,
    limits: config.holdLimits,
    quickOrderPerMinute: config.quickOrderPerMinute,
    holdWarningMs: config.holdWarningMs,
  });

test("the environment takes only what the form takes, so an admin can always save it unchanged", () => {
  const largest = loadConfig({
    ORDER_HOLD_HOURS: "8760",
    HOLD_NEW_CUSTOMER_MINUTES: "525600",
    HOLD_WARNING_HOURS: "1",
    HOLD_MAX_SHARE: "0.01",
    HOLD_NEW_CUSTOMER_SHARE: "0.99",
    HOLD_MAX_VALUE: "12345.67",
  });
  expect(orderLimitsSchema.safeParse(formOf(largest)).error).toBeUndefined();
  expect(orderLimitsSchema.safeParse(formOf(loadConfig({}))).error).toBeUndefined();
  // Each of these once started the store with limits its own form then refused to save.
  for (const [name, value] of [
    ["ORDER_HOLD_HOURS", "0.5"],
    ["HOLD_NEW_CUSTOMER_MINUTES", "2.5"],
    ["HOLD_WARNING_HOURS", "1.5"],
    ["HOLD_MAX_SHARE", "0.575"],
    ["HOLD_NEW_CUSTOMER_SHARE", "0.001"],
    ["HOLD_MAX_VALUE", "10.005"],
  ]) {
    expect(() => loadConfig({ [name!]: value }), name).toThrow(ConfigError);
    expect(() => loadConfig({ [name!]: value }), name).toThrow(
      new RegExp(`${name}: must be what the order limits form takes`),
    );
  }
});
