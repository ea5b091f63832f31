import { openMail } from "./mailbox";
import { E2E_SHIP_TO, productNamed } from "./auth-helpers";
import { expect, test } from "./fixtures";

// docs/returns.md: a payment the store could not apply is refunded by the admin from
// Manage All Orders, and the customer is emailed.

test("a payment that arrives after the admin cancelled the order is refunded from Manage All Orders; the customer is emailed", async ({
  page,
  customer,
  adminPage: admin,
}) => {
  // The customer orders and the payment page charges the card (through the API, as the browser
  // would), but the store has not heard of the payment yet.
  const product = await productNamed(page, "bearing");
  const placed = await page.request.post("/api/orders", {
    data: {
      productId: product._id,
      orderQty: product.minimumOrder,
      phonrNo: "07700900123",
      Address: "3 Depot Street",
      shipTo: E2E_SHIP_TO,
    },
  });
  expect(placed.status()).toBe(201);
  const orderId = (await placed.json()).order._id as string;
  // The admin has the order on screen, unpaid...
  await admin.goto("/dashboard/manageallorders");
  await admin.getByLabel("Status").selectOption("unpaid");
  await admin.getByLabel("Search orders").fill(customer.email);
  await admin.getByRole("button", { name: "Search" }).click();
  const orderRow = admin.getByTestId("admin-order").filter({ hasText: customer.email });
  await expect(orderRow).toHaveCount(1);

  // ...when the payment page charges the card. The charge and the cancel are a click apart: the
  // payment reconciliation job (every 5 minutes) would otherwise have time to settle the charge
  // first and make the order paid.
  const intent = await page.request.post("/api/create-payment-intent", { data: { orderId } });
  const { clientSecret, amount } = (await intent.json()) as {
    clientSecret: string;
    amount: number;
  };
  const charged = await page.request.post("/api/payments/test-card/confirm", {
    data: { clientSecret, number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" },
  });
  expect(charged.ok()).toBe(true);
  const { transactionId } = (await charged.json()) as { transactionId: string };

  // Meanwhile the admin cancels the order.
  await orderRow.getByRole("button", { name: "Cancel order" }).click();
  await admin
    .getByRole("dialog", { name: "Cancel this order?" })
    .getByRole("button", { name: "Cancel order" })
    .click();
  await expect(orderRow).toHaveCount(0);

  // The payment arrives: the order stays cancelled, the money is kept as refund due.
  const late = await page.request.patch(`/api/orders/${orderId}`, { data: { transactionId } });
  expect(late.status()).toBe(409);

  // The admin refunds it from "Payments to refund".
  await admin.reload();
  const due = admin
    .getByRole("region", { name: "Payments to refund" })
    .getByTestId("refund-due")
    .filter({ hasText: orderId });
  await expect(due).toHaveCount(1);
  await expect(due).toContainText("paid after the store cancelled the order");
  await expect(due.getByTestId("refund-due-status")).toHaveText("To refund");
  await due.getByRole("button", { name: "Refund" }).click();
  const dialog = admin.getByRole("dialog", { name: "Refund this payment?" });
  await expect(dialog).toContainText("the customer is emailed");
  await dialog.getByRole("button", { name: "Refund" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(due.getByTestId("refund-due-status")).toHaveText("Refunded");
  await expect(due.getByRole("button", { name: "Refund" })).toHaveCount(0);

  // Refunded, it is no longer listed on the next visit.
  const listedAgain = admin.waitForResponse((r) => r.url().endsWith("/api/payments/refunds-due"));
  await admin.reload();
  expect((await listedAgain).ok()).toBe(true);
  await expect(admin.getByTestId("refund-due").filter({ hasText: orderId })).toHaveCount(0);

  // The customer's mailbox has the email.
  const price = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(
    amount,
  );
  await openMail(page, customer.email, `Your payment of ${price} was refunded`);
  await expect(page.getByText("so we refunded it in full")).toBeVisible();
});
