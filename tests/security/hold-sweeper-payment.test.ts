import { eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { orders } from "../../src/server/orders/tables";
import { payments, testCardIntents } from "../../src/server/payments/tables";
import { products } from "../../src/server/catalog/tables";
import { CANCELED_MESSAGE } from "../../src/server/payments/test-card-gateway";
import { signUp, type TestAccount } from "../support/accounts";
import { insertProduct } from "../support/factories";
import { eventually } from "../support/mailbox";
import { orderWithIntent } from "../support/payments";
import { appForTests } from "../support/store";

// Issue 49, finding 12: the hold sweeper cancelled orders whose hold ran out but left their
// payment intents open at the gateway, so a payment page still open could charge the card for
// stock already back on sale. The sweeper runs every second here.

const { t } = appForTests({ env: { HOLD_SWEEP_SECONDS: "1" }, shipsToTestAddress: true });
let customer: TestAccount;
beforeAll(async () => {
  customer = await signUp(t.app);
});

test("the hold sweeper cancels the open payment of an order whose hold ran out: the card is not charged", async () => {
  const p = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 10 });
  const { orderId, charge } = await orderWithIntent(t.app, customer, p.id, 2);
  await t.database.db
    .update(orders)
    .set({ holdExpiresAt: new Date(Date.now() - 1000) })
    .where(eq(orders.id, orderId));

  const intentStatus = async () =>
    (
      await t.database.db
        .select({ status: testCardIntents.status })
        .from(testCardIntents)
        .where(eq(testCardIntents.orderId, orderId))
    )[0]?.status;
  const paymentStatus = async () =>
    (
      await t.database.db
        .select({ status: payments.status })
        .from(payments)
        .where(eq(payments.orderId, orderId))
    )[0]?.status;
  // The gateway's intent is cancelled first, then the store's payment row (cancelIntentsOf):
  // both are waited for, as the sweeper's run may be between the two.
  await eventually(
    async () =>
      (await intentStatus()) === "canceled" && (await paymentStatus()) === "canceled"
        ? true
        : undefined,
    "the sweeper to cancel the order's payment intent and payment",
  );
  const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
  expect(order!.status).toBe("cancelled");
  expect(await paymentStatus()).toBe("canceled");

  // The payment page was still open: its card is refused, nothing charged, the stock stays back.
  const charged = await charge();
  expect(charged.statusCode).toBe(409);
  expect(charged.json().message).toBe(CANCELED_MESSAGE);
  expect(await intentStatus()).toBe("canceled");
  const [product] = await t.database.db.select().from(products).where(eq(products.id, p.id));
  expect(product!.availableQuantity).toBe(10);
});
