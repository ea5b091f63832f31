import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * The admin marks a return received on the Returns page with every line as it was sent back (as
 * new) and confirms the refund shown: the receive dialog, then the confirmation.
 */
export async function receiveAsSent(admin: Page, row: ReturnType<Page["getByTestId"]>) {
  await row.getByRole("button", { name: "Mark received" }).click();
  await admin
    .getByRole("dialog", { name: /^Receive RMA-\d+$/ })
    .getByRole("button", { name: "Receive" })
    .click();
  await admin
    .getByRole("dialog", { name: /^Refund \$/ })
    .getByRole("button", { name: /^Refund \$/ })
    .click();
}

/** The admin marks the customer's one order shipped on Manage all orders (and its confirmation). */
export async function shipInBrowser(admin: Page, customerEmail: string) {
  await admin.goto("/dashboard/manageallorders");
  await admin.getByLabel("Search orders").fill(customerEmail);
  await admin.getByRole("button", { name: "Search" }).click();
  const orderRow = admin.getByTestId("admin-order").filter({ hasText: customerEmail });
  await expect(orderRow).toHaveCount(1);
  await orderRow.getByRole("button", { name: "Mark shipped" }).click();
  await admin
    .getByRole("dialog", { name: "Mark this order shipped?" })
    .getByRole("button", { name: "Mark shipped" })
    .click();
  // The status itself (getByText("Shipped") also finds the "Mark shipped" button, at once).
  await expect(orderRow.getByTestId("order-status")).toHaveText("Shipped");
}
