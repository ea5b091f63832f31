import { eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { shippedOrderOfNewPart } from "../../../tests/support/payments";
import { storeForTests } from "../../../tests/support/store";
import { returnMessages, returnWindowMessages } from "../../contract/returns";
import { adminAuditLog } from "../audit/tables";
import { shipments } from "../shipments/tables";

/**
 * The return windows an admin sets on Dashboard → Returns (docs/returns.md "The return
 * windows"): until saved, the environment's; once saved, every order's window from then on.
 */

const DAY = 24 * 60 * 60 * 1000;

const { t, call, admin, customer } = storeForTests({
  admin: "windows-admin@example.com",
  shipsToTestAddress: true,
  customers: { customer: "windows-customer@example.com" },
  env: { RETURN_WINDOW_DAYS: "30", CORE_RETURN_WINDOW_DAYS: "60" },
});

/** A part the customer bought, paid for and was shipped `daysAgo` days ago. */
async function shippedDaysAgo(daysAgo: number) {
  const { orderId } = await shippedOrderOfNewPart(t, customer, admin, 1, {
    priceCents: 2000,
    availableQuantity: 10,
  });
  await t.database.db
    .update(shipments)
    .set({ shippedAt: new Date(Date.now() - daysAgo * DAY) })
    .where(eq(shipments.orderId, orderId));
  return orderId;
}

const ask = (orderId: string) =>
  call(customer, "POST", `/api/orders/${orderId}/returns`, {
    lines: [{ line: 1, qty: 1 }],
    reason: "no_longer_needed",
  });

test("the environment's windows until an admin saves others; a longer window reopens an order, audited", async () => {
  const before = await call(admin, "GET", "/api/returns/windows");
  expect(before.statusCode).toBe(200);
  expect(before.json()).toEqual({ days: 30, coreDays: 60, updatedAt: null });

  const orderId = await shippedDaysAgo(40);
  const late = await ask(orderId);
  expect(late.statusCode).toBe(422);
  expect(late.json().message).toBe(returnMessages.windowClosed(30));

  const saved = await call(admin, "PUT", "/api/returns/windows", { days: 45, coreDays: 90 });
  expect(saved.statusCode, saved.body).toBe(200);
  expect(saved.json()).toMatchObject({ days: 45, coreDays: 90 });
  expect(saved.json().updatedAt).not.toBeNull();
  expect((await call(admin, "GET", "/api/returns/windows")).json()).toEqual(saved.json());

  const returnable = await call(customer, "GET", `/api/orders/${orderId}/returnable`);
  expect(returnable.json()).toMatchObject({ eligible: true });
  expect((await ask(orderId)).statusCode).toBe(201);

  const audit = await t.database.db
    .select({ summary: adminAuditLog.summary })
    .from(adminAuditLog)
    .where(eq(adminAuditLog.action, "return.windows"));
  expect(audit.map((a) => a.summary)).toEqual([
    "Set the return windows: parts 45 days after shipping, cores 90 days after shipping",
  ]);

  // A shorter one closes it again, with the new number of days in the words.
  await call(admin, "PUT", "/api/returns/windows", { days: 20, coreDays: 90 });
  const closed = await ask(await shippedDaysAgo(25));
  expect(closed.json().message).toBe(returnMessages.windowClosed(20));
});

test("bad windows are refused in words and change nothing", async () => {
  const now = (await call(admin, "GET", "/api/returns/windows")).json();
  for (const [body, field, message] of [
    [{ days: -1, coreDays: 90 }, "days", returnWindowMessages.days],
    [{ days: 1.5, coreDays: 90 }, "days", returnWindowMessages.days],
    [{ days: 30, coreDays: 3651 }, "coreDays", returnWindowMessages.coreDays],
    [{ days: "30", coreDays: 90 }, "days", returnWindowMessages.days],
  ] as const) {
    const refused = await call(admin, "PUT", "/api/returns/windows", body);
    expect(refused.statusCode, JSON.stringify(body)).toBe(400);
    expect(refused.json().fields?.[field] ?? refused.json().message).toBe(message);
  }
  expect(returnWindowMessages.days).toBe(
    "The return window is a whole number of days from 0 to 3650",
  );
  expect((await call(admin, "GET", "/api/returns/windows")).json()).toEqual(now);
  // Customers cannot read or set them.
  expect((await call(customer, "GET", "/api/returns/windows")).statusCode).toBe(403);
});
