import { eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { placeTestOrder } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { cancelOrderAsAdmin, openPayment } from "../../../tests/support/payments";
import { storeForTests } from "../../../tests/support/store";
import { cancelledPaymentMessages } from "../../contract/orders";
import { createInventory } from "../inventory/service";
import { orders } from "../orders/tables";
import { createExpireHolds } from "../workflows/expire-holds";

/**
 * Paying a cancelled order says why it was cancelled (issue 49, finding 8): an admin's cancel
 * answered "its hold on the stock ran out".
 */

const { t, admin, customer } = storeForTests({
  admin: "cancelled-pay-admin@example.com",
  shipsToTestAddress: true,
  customers: { customer: "cancelled-pay-customer@example.com" },
});

async function unpaidOrder(): Promise<string> {
  const part = await insertProduct(t.database.db, { priceCents: 900, availableQuantity: 10 });
  const placed = await placeTestOrder(t.app, customer, part.id, part.minimumOrder, "1 Quay");
  expect(placed.statusCode, placed.body).toBe(201);
  return placed.json().order._id as string;
}
const pay = (orderId: string) => openPayment(t.app, customer, orderId);

test("an order the admin cancelled says so, not that its hold ran out", async () => {
  const orderId = await unpaidOrder();
  const cancelled = await cancelOrderAsAdmin(t.app, admin, orderId);
  expect(cancelled.statusCode, cancelled.body).toBe(200);
  const res = await pay(orderId);
  expect(res.statusCode).toBe(422);
  expect(res.json().message).toBe("This order was cancelled by the store, so it cannot be paid");
});

test("an order whose hold ran out says that", async () => {
  const orderId = await unpaidOrder();
  await t.database.db
    .update(orders)
    .set({ holdExpiresAt: new Date(Date.now() - 60_000) })
    .where(eq(orders.id, orderId));
  // The sweeper's run (the app's own may get there first: either cancels it once).
  const expireHolds = createExpireHolds(createInventory(t.database.db));
  const row = async () =>
    (await t.database.db.select().from(orders).where(eq(orders.id, orderId)))[0]!;
  await expect
    .poll(async () => {
      await expireHolds();
      return (await row()).status;
    })
    .toBe("cancelled");
  expect((await row()).cancelReason).toBe("hold_ran_out");
  const res = await pay(orderId);
  expect(res.statusCode).toBe(422);
  expect(res.json().message).toBe(cancelledPaymentMessages.hold_ran_out);
});
