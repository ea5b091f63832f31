import { eq, sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { signIn, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct, insertReview } from "../../../tests/support/factories";
import { unpaidOrders } from "../../../tests/support/invoices";
import { messagesFor, waitForMail } from "../../../tests/support/mailbox";
import { createTestApp } from "../../../tests/support/test-app";
import { storeForTests } from "../../../tests/support/store";
import type { AdminHome } from "../../contract/admin-home";
import { lowStockEmails } from "./tables";
import { orders } from "../orders/tables";
import { payments } from "../payments/tables";
import { products } from "../catalog/tables";
import { quotes } from "../quotes/tables";
import { returnRequests } from "../returns/tables";
import { reviews } from "../reviews/tables";
import { user } from "../users/tables";
import { createAdminHomeService } from "./service";
import { createLowStockMail } from "./mail";
import { createLowStockEmailSettings } from "./low-stock-settings";
import { lowStockEmailWords } from "../../contract/admin-home";
import { adminAuditLog } from "../audit/tables";

const HOUR = 3_600_000;

const { t, call, admin, customer } = storeForTests({
  admin: "home-admin@example.com",
  customers: { customer: "home-customer@example.com" },
});

const as = (a: TestAccount) => ({ cookie: a.cookie });
async function home(): Promise<AdminHome> {
  const res = await t.app.inject({ method: "GET", url: "/api/admin-home", headers: as(admin) });
  expect(res.statusCode).toBe(200);
  return res.json();
}

test("paid orders waiting to ship come oldest payment first; shipped and unpaid ones are not there", async () => {
  const [older, newer, shipped, unpaid] = await unpaidOrders(t.database.db, 4);
  const paid = (id: string, paidAt: Date, status: "paid" | "shipped" = "paid") =>
    t.database.db
      .update(orders)
      .set({
        status,
        transactionId: `pi_home_${id}`,
        paidAt,
        shippedAt: status === "shipped" ? new Date() : null,
      })
      .where(eq(orders.id, id));
  await paid(newer!, new Date(Date.now() - HOUR));
  await paid(older!, new Date(Date.now() - 5 * HOUR));
  await paid(shipped!, new Date(Date.now() - 9 * HOUR), "shipped");

  const { toShip } = await home();
  expect(toShip.count).toBe(2);
  expect(toShip.oldest.map((o) => o.id)).toEqual([older, newer]);
  expect(toShip.oldest.map((o) => o.id)).not.toContain(unpaid);
});

test("holds about to run out are those ending within the warning time, soonest first", async () => {
  const [soon, sooner, later] = await unpaidOrders(t.database.db, 3);
  const endsIn = (id: string, ms: number) =>
    t.database.db
      .update(orders)
      .set({ holdExpiresAt: new Date(Date.now() + ms) })
      .where(eq(orders.id, id));
  // Every other unpaid order of this file ends an hour from now (unpaidOrders): push them out.
  await t.database.db
    .update(orders)
    .set({ holdExpiresAt: new Date(Date.now() + 100 * HOUR) })
    .where(eq(orders.status, "unpaid"));
  await endsIn(soon!, 2 * HOUR);
  await endsIn(sooner!, HOUR);
  await endsIn(later!, 13 * HOUR); // the test config warns 12 hours before (HOLD_WARNING_HOURS)

  const { expiringHolds } = await home();
  expect(expiringHolds.withinMinutes).toBe(12 * 60);
  expect(expiringHolds.soonest.map((o) => o.id)).toEqual([sooner, soon]);
  expect(expiringHolds.count).toBe(2);
});

test("low stock is below the admin's reorder level, or twice the minimum order by default", async () => {
  const before = (await home()).lowStock;
  const atDefault = await insertProduct(t.database.db, { minimumOrder: 3, availableQuantity: 6 });
  const belowDefault = await insertProduct(t.database.db, {
    minimumOrder: 3,
    availableQuantity: 5,
  });
  const ownLevel = await insertProduct(t.database.db, {
    minimumOrder: 1,
    availableQuantity: 40,
  });
  const setLevel = (id: string, reorderLevel: number | null, who = admin) =>
    t.app.inject({
      method: "PUT",
      url: `/api/products/${id}/reorder-level`,
      headers: as(who),
      payload: { reorderLevel },
    });

  let low = (await home()).lowStock;
  expect(low.count).toBe(before.count + 1);
  expect(low.products).toContainEqual({
    id: belowDefault.id,
    name: belowDefault.name,
    partNumber: belowDefault.partNumber,
    availableQuantity: 5,
    reorderLevel: 6,
    reorderLevelSet: false,
  });
  expect(low.products.map((p) => p.id)).not.toContain(atDefault.id);

  const set = await setLevel(ownLevel.id, 50);
  expect(set.statusCode).toBe(200);
  expect(set.json()).toEqual({ productId: ownLevel.id, reorderLevel: 50, reorderLevelSet: true });
  low = (await home()).lowStock;
  expect(low.products.find((p) => p.id === ownLevel.id)).toMatchObject({
    reorderLevel: 50,
    reorderLevelSet: true,
  });
  // Least stock first.
  const stocks = low.products.map((p) => p.availableQuantity);
  expect(stocks).toEqual([...stocks].sort((a, b) => a - b));

  // Back to the default (2 × 1): 40 is not low.
  const reset = await setLevel(ownLevel.id, null);
  expect(reset.json()).toEqual({ productId: ownLevel.id, reorderLevel: 2, reorderLevelSet: false });
  expect((await home()).lowStock.products.map((p) => p.id)).not.toContain(ownLevel.id);

  // Each change is in the audit log.
  const audit = await t.app.inject({ method: "GET", url: "/api/audit", headers: as(admin) });
  expect(JSON.stringify(audit.json())).toContain(
    `Set the reorder level of ${ownLevel.partNumber} ${ownLevel.name} to 50`,
  );
});

test("a reorder level must be a whole number of units, 0 or more, of a product that exists", async () => {
  const p = await insertProduct(t.database.db);
  const put = (payload: unknown, id = p.id) =>
    t.app.inject({
      method: "PUT",
      url: `/api/products/${id}/reorder-level`,
      headers: as(admin),
      payload: payload as object,
    });
  for (const [payload, message] of [
    [{ reorderLevel: -1 }, "A reorder level cannot be negative"],
    [{ reorderLevel: 2.5 }, "Enter a whole number of units"],
    [{ reorderLevel: "7" }, "Enter a whole number of units"],
    [{}, "Enter a whole number of units"],
  ] as const) {
    const res = await put(payload);
    expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    expect(res.body).toContain(message);
  }
  const missing = await put({ reorderLevel: 3 }, "00000000-0000-4000-8000-000000000000");
  expect(missing.statusCode).toBe(404);
  const [row] = await t.database.db
    .select({ level: products.reorderLevel })
    .from(products)
    .where(eq(products.id, p.id));
  expect(row?.level).toBeNull();
});

test("reviews to moderate, quotes to price, returns to handle, orders awaiting approval and refunds due are counted", async () => {
  const before = await home();
  const review = await insertReview(t.database.db);
  await t.database.db
    .update(reviews)
    .set({ pendingSince: new Date() })
    .where(eq(reviews.id, review.id));
  await t.database.db.insert(quotes).values([
    { requesterEmail: "q@example.com", requesterName: "Q", status: "requested" },
    { requesterEmail: "q@example.com", requesterName: "Q", status: "sent" },
  ]);
  const [waiting, returned] = await unpaidOrders(t.database.db, 2);
  await t.database.db.insert(returnRequests).values(
    (["requested", "approved", "refund_failed", "refused", "refunded"] as const).map((status) => ({
      orderId: returned!,
      status,
      reason: "damaged" as const,
    })),
  );
  await t.database.db
    .update(orders)
    .set({ status: "awaiting_approval" })
    .where(eq(orders.id, waiting!));
  await t.database.db.insert(payments).values({
    gatewayIntentId: "pi_home_refund_due",
    gateway: "test-card",
    orderId: null,
    amountCents: 1200,
    currency: "usd",
    status: "refund_due",
    refundReason: "payment that fits no order",
  });

  const after = await home();
  expect(after.reviewsToModerate).toBe(before.reviewsToModerate + 1);
  expect(after.quotesToPrice).toBe(before.quotesToPrice + 1);
  expect(after.returnsToHandle).toBe(before.returnsToHandle + 3);
  expect(after.approvalsWaiting).toBe(before.approvalsWaiting + 1);
  expect(after.refundsDue).toBe(before.refundsDue + 1);
});

test("only admins see the home or set reorder levels", async () => {
  const p = await insertProduct(t.database.db);
  const other = await signIn(t.app, customer.email, customer.password);
  expect(
    (await t.app.inject({ method: "GET", url: "/api/admin-home", headers: { cookie: other } }))
      .statusCode,
  ).toBe(403);
  const put = await t.app.inject({
    method: "PUT",
    url: `/api/products/${p.id}/reorder-level`,
    headers: { cookie: other },
    payload: { reorderLevel: 1 },
  });
  expect(put.statusCode).toBe(403);
  expect((await t.app.inject({ method: "GET", url: "/api/admin-home" })).statusCode).toBe(401);
});

test("the low-stock email goes to every admin once a day, from its hour, and not when nothing is low", async () => {
  const service = createAdminHomeService(t.database.db, {
    holdWarningMs: async () => 12 * HOUR,
    lowStockMail: {
      // The real mail (low-stock-mail.ts) through the app's mailer is below; here, who and when.
      send: async () => {},
    },
    // From 07:00 UTC, as the environment's default (an admin's settings are the last test's).
    lowStockEmail: createLowStockEmailSettings(t.database.db, { enabled: true, hourUtc: 7 }),
  });
  // Nothing low: no email, and a later run that day looks again.
  await t.database.db.update(products).set({ reorderLevel: 0 });
  expect(await service.sendLowStockEmail(new Date("2031-03-01T08:00:00Z"))).toBe(0);
  await t.database.db.update(products).set({ reorderLevel: null });
  await insertProduct(t.database.db, { minimumOrder: 5, availableQuantity: 1 });
  expect(await service.sendLowStockEmail(new Date("2031-03-01T09:00:00Z"))).toBe(1);

  // Before the hour: nothing; from it: one per admin; again the same day: nothing.
  expect(await service.sendLowStockEmail(new Date("2031-03-02T06:59:00Z"))).toBe(0);
  expect(await service.sendLowStockEmail(new Date("2031-03-02T07:00:00Z"))).toBe(1);
  const twice = await Promise.all([
    service.sendLowStockEmail(new Date("2031-03-02T08:00:00Z")),
    service.sendLowStockEmail(new Date("2031-03-02T09:00:00Z")),
  ]);
  expect(twice).toEqual([0, 0]);
  const days = await t.database.db.select().from(lowStockEmails);
  expect(days.map((d) => d.day).sort()).toEqual(["2031-03-01", "2031-03-02"]);
});

test("the low-stock email lists the products with their stock and level, and links the admin home", async () => {
  let part = { name: "", partNumber: "" };
  const mailApp = await createTestApp(
    { LOW_STOCK_EMAIL: "true", LOW_STOCK_EMAIL_HOUR: "0" },
    {
      // Low stock and an admin before the app starts: its first run of the job emails them.
      seed: async (db) => {
        part = await insertProduct(db, { minimumOrder: 4, availableQuantity: 3 });
        await db.insert(user).values({
          id: "stock-admin",
          name: "Stock Admin",
          email: "stock-admin@example.com",
          role: "admin",
        });
      },
    },
  );
  try {
    const mail = await waitForMail(mailApp.app, "stock-admin@example.com", /low on stock/);
    expect(mail.subject).toBe("1 product is low on stock");
    expect(mail.text).toContain("Hello Stock Admin,");
    expect(mail.text).toContain(`${part.partNumber} ${part.name}  3 / 8`);
    expect(mail.text).toMatch(/Open the admin home: http:\/\/\S+\/dashboard\n/);
    expect(await messagesFor(mailApp.app, "stock-admin@example.com")).toHaveLength(1);
  } finally {
    await mailApp.close();
  }
});

test("a part below the reorder level set at a location is on Today and in the low-stock email, with the location", async () => {
  const p = await insertProduct(t.database.db, { availableQuantity: 30, minimumOrder: 1 });
  await t.database.db.execute(sql`
    with added as (
      insert into stock_locations (code, name, country) values ('HOME-LOW', 'Denver warehouse', 'US')
      returning id),
    stock as (insert into location_stock (product_id, location_id, available)
              select ${p.id}::uuid, id, 4 from added)
    insert into reorder_levels (product_id, location_id, level)
    select ${p.id}::uuid, id, 10 from added
    union all
    select ${p.id}::uuid, id, 20 from stock_locations where is_home`);
  // Denver: 4 on sale, below 10; the home location: 26, above 20.
  const { lowAtLocations } = await home();
  expect(lowAtLocations.rows.filter((r) => r.productId === p.id)).toEqual([
    {
      productId: p.id,
      name: p.name,
      partNumber: p.partNumber,
      location: "Denver warehouse",
      onSale: 4,
      reorderLevel: 10,
    },
  ]);

  const sent: { subject: string; text: string }[] = [];
  const service = createAdminHomeService(t.database.db, {
    holdWarningMs: async () => HOUR,
    lowStockMail: createLowStockMail(
      { sendIn: async (_tx, mail) => void sent.push(mail) },
      "http://store.test",
    ),
    lowStockEmail: { inForce: async () => ({ enabled: true, hourUtc: 0, updatedAt: null }) },
  });
  await t.database.db.update(products).set({ reorderLevel: 0 });
  expect(await service.sendLowStockEmail(new Date("2032-01-05T08:00:00Z"))).toBeGreaterThan(0);
  expect(sent[0]!.text).toContain(`${p.partNumber} ${p.name} at Denver warehouse  4 / 10`);
  await t.database.db.update(products).set({ reorderLevel: null });
});

test("an admin turns the low-stock email off or moves its hour on Today; the job follows, bad input changes nothing", async () => {
  const path = "/api/admin-home/low-stock-email";
  // The environment's values until an admin saves: the test stores' LOW_STOCK_EMAIL=false, and
  // LOW_STOCK_EMAIL_HOUR's default.
  expect((await call(admin, "GET", path)).json()).toEqual({
    enabled: false,
    hourUtc: 7,
    updatedAt: null,
  });
  for (const bad of [{ hourUtc: 24 }, { hourUtc: -1 }, { hourUtc: 7.5 }, { hourUtc: "7" }]) {
    const refused = await call(admin, "PUT", path, { enabled: true, ...bad });
    expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
    expect(refused.json().fields.hourUtc).toBe("The hour is a whole number from 0 to 23");
  }
  expect((await call(admin, "PUT", path, { hourUtc: 9 })).statusCode).toBe(400);
  expect((await call(admin, "GET", path)).json().updatedAt).toBeNull();
  expect((await call(customer, "GET", path)).statusCode).toBe(403);
  expect((await call(customer, "PUT", path, { enabled: false, hourUtc: 9 })).statusCode).toBe(403);

  // The job reads what the admin saved (its own defaults, off, lose to the saved row).
  const service = createAdminHomeService(t.database.db, {
    holdWarningMs: async () => HOUR,
    lowStockMail: { send: async () => {} },
    lowStockEmail: createLowStockEmailSettings(t.database.db, { enabled: false, hourUtc: 0 }),
  });
  await insertProduct(t.database.db, { minimumOrder: 5, availableQuantity: 1 });
  const at9 = await call(admin, "PUT", path, { enabled: true, hourUtc: 9 });
  expect(at9.statusCode, at9.body).toBe(200);
  expect(at9.json()).toMatchObject({ enabled: true, hourUtc: 9 });
  expect(at9.json().updatedAt).not.toBeNull();
  expect(lowStockEmailWords.saved(at9.json())).toBe(
    "Low-stock email saved: every admin gets it once a day from 09:00 UTC",
  );
  expect(await service.sendLowStockEmail(new Date("2033-01-01T08:59:00Z"))).toBe(0);
  expect(await service.sendLowStockEmail(new Date("2033-01-01T09:00:00Z"))).toBe(1);

  const off = await call(admin, "PUT", path, { enabled: false, hourUtc: 9 });
  expect(lowStockEmailWords.saved(off.json())).toBe("Low-stock email saved: it is off");
  expect(await service.sendLowStockEmail(new Date("2033-01-02T12:00:00Z"))).toBe(0);
  const audit = await t.database.db
    .select({ summary: adminAuditLog.summary })
    .from(adminAuditLog)
    .where(eq(adminAuditLog.action, "inventory.low-stock-email"));
  expect(audit.map((a) => a.summary)).toEqual([
    "Set the low-stock email: every admin gets it once a day from 09:00 UTC",
    "Set the low-stock email: it is off",
  ]);
});
